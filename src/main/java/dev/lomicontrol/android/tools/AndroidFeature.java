package dev.lomicontrol.android.tools;

import dev.lomicontrol.android.api.AndroidSpecs;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.operations.ToolFeature;
import dev.lomicontrol.operations.ToolHandlers;
import dev.lomicontrol.tools.ToolSpec;
import org.springframework.stereotype.Component;

/**
 * The Android tools, not served yet: where the host lacks what a tool needs the broker's host check
 * answers HOST_UNQUALIFIED with the reason ({@link dev.lomicontrol.tools.HostQualification}); where
 * it has it, these handlers answer HOST_UNQUALIFIED too — never an unknown tool, never a fake success.
 */
@Component
public final class AndroidFeature implements ToolFeature {

    @Override
    public void register(Wiring wiring) {
        AndroidSpecs.ALL.forEach(spec -> unavailable(wiring.handlers(), spec));
    }

    private static <I> void unavailable(ToolHandlers handlers, ToolSpec<I> spec) {
        handlers.on(spec, (session, input) -> {
            throw new LomiException(
                    ErrorCode.HOST_UNQUALIFIED,
                    spec.name() + " is not available on this host yet; do the task with the tools that are listed");
        });
    }
}
