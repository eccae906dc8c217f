package dev.lomicontrol.terminal;

/**
 * How a command run settled. A run settles exactly once: with the exit code the shell integration
 * reported, or as lost when that report can no longer be trusted to arrive (lease revoked, shell
 * exited, write failed). Completion is never inferred from silence.
 */
public sealed interface RunOutcome {

    /** The shell reported the command's exit code (OSC 133 D). */
    record Exited(int code) implements RunOutcome {}

    /** No exit code will be attributed to this run; the effect is unknown. */
    record Lost(String reason) implements RunOutcome {}
}
