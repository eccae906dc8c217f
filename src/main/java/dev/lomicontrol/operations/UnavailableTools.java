package dev.lomicontrol.operations;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.tools.HostNeed;
import dev.lomicontrol.tools.ToolSpec;
import java.util.List;

/**
 * The tools this host cannot serve (Android without a managed emulator, and the browser
 * tools until they are built): each is registered so that the broker answers HOST_UNQUALIFIED with
 * the reason ({@link dev.lomicontrol.tools.HostQualification}) — never an unknown tool, never a fake success.
 */
public final class UnavailableTools {

    private UnavailableTools() {}

    /** Registered after every feature: takes the host-bound tools that no feature serves. */
    public static void register(ToolHandlers handlers, List<ToolSpec<?>> catalog) {
        for (ToolSpec<?> spec : catalog) {
            if (spec.host() != HostNeed.NONE && !handlers.handles(spec.name())) {
                register(handlers, spec);
            }
        }
    }

    private static <I> void register(ToolHandlers handlers, ToolSpec<I> spec) {
        handlers.on(spec, (session, input) -> {
            throw new LomiException(
                    ErrorCode.HOST_UNQUALIFIED,
                    spec.name() + " is not available on this host yet; do the task with the tools that are listed");
        });
    }
}
