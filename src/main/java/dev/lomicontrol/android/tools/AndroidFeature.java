package dev.lomicontrol.android.tools;

import dev.lomicontrol.android.AndroidDevices;
import dev.lomicontrol.android.api.AndroidSpecs;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.operations.ToolFeature;
import dev.lomicontrol.operations.ToolHandlers;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.tools.HostProbe;
import dev.lomicontrol.tools.HostQualification;
import dev.lomicontrol.tools.ToolSpec;
import java.nio.file.Path;
import java.util.function.Supplier;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * The Android tools. {@code lomi_android_list} is served ({@link AndroidList}: the devices of the
 * user's adb server and the user's AVDs); the others are not implemented yet: where the host lacks
 * what a tool needs the broker's host check answers HOST_UNQUALIFIED with the reason
 * ({@link HostQualification}), and where it has it, that check answers that the tool is not
 * implemented — these handlers answer HOST_UNQUALIFIED too, never an unknown tool, never a fake
 * success.
 */
@Component
public final class AndroidFeature implements ToolFeature {

    private final AndroidList list;

    /** The user's devices on this host: the adb server and AVD home of the broker's environment, the adb the host probe finds. */
    @Autowired
    public AndroidFeature(WorkspaceAccess access) {
        this(
                access,
                () -> AndroidDevices.ofHost(
                        System.getenv(),
                        Path.of(System.getProperty("user.home", "/")),
                        HostProbe.current().adb()));
    }

    /** The devices {@code devices} gives (built per call, so an adb installed later is found). */
    public AndroidFeature(WorkspaceAccess access, Supplier<AndroidDevices> devices) {
        this.list = new AndroidList(access, devices);
    }

    @Override
    public void register(Wiring wiring) {
        ToolHandlers handlers = wiring.handlers();
        for (ToolSpec<?> spec : AndroidSpecs.ALL) {
            if (spec.equals(AndroidSpecs.LIST)) {
                handlers.on(AndroidSpecs.LIST, list::list);
            } else {
                unavailable(handlers, spec);
            }
        }
    }

    private static <I> void unavailable(ToolHandlers handlers, ToolSpec<I> spec) {
        handlers.on(spec, (session, input) -> {
            throw new LomiException(
                    ErrorCode.HOST_UNQUALIFIED,
                    spec.name() + " is not implemented on this broker yet; do the task with the tools that are listed");
        });
    }
}
