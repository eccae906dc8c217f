package dev.lomicontrol.terminal.api;

import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.terminal.api.TerminalSpecs.ControlAction;
import dev.lomicontrol.terminal.api.TerminalSpecs.Profile;
import dev.lomicontrol.tools.Decimal;
import dev.lomicontrol.tools.Doc;
import dev.lomicontrol.tools.Hex32;
import dev.lomicontrol.tools.Tag;
import dev.lomicontrol.tools.Tagged;
import dev.lomicontrol.tools.Token;
import java.util.List;
import java.util.Optional;

/**
 * What the terminal tools answer ({@link TerminalSpecs} declares the tools and their inputs): the
 * output and result records, by their simple names as the published schemas name them.
 */
public final class TerminalResults {

    private TerminalResults() {}

    @Tag("terminal_created")
    public record Created(
            WorkspaceId workspaceId,
            @Doc("the new terminal's panel") Token panelId,
            @Doc("its tab") Token tabId,
            Hex32 terminalSessionId,
            Hex32 leaseId,
            @Doc("the shell it runs") Profile profileId,
            @Doc("the layout's revision after the change") Decimal domainRevision,

            @Doc(
                    "whether the shell's prompt is ready for lomi_terminal_run as this answer is made (the reference's ready); null when "
                            + "the terminal is gone, and in lomi_operation_cancel's answer")
            Optional<Boolean> ready,

            @Doc("with command: its run, as lomi_terminal_run answers it (the operation is this create's)")
            Optional<RunResult> run) {

        /** The same result with the prompt's state now (answers fill it from the live terminal; the stored result never has it). */
        public Created withReady(Optional<Boolean> now) {
            return new Created(
                    workspaceId, panelId, tabId, terminalSessionId, leaseId, profileId, domainRevision, now, run);
        }

        /** The same result with the command's run. */
        public Created withRun(RunResult result) {
            return new Created(
                    workspaceId,
                    panelId,
                    tabId,
                    terminalSessionId,
                    leaseId,
                    profileId,
                    domainRevision,
                    ready,
                    Optional.of(result));
        }
    }

    @Tag("terminal_run")
    public record RunResult(
            WorkspaceId workspaceId,
            Token panelId,
            Hex32 terminalSessionId,
            @Doc("the run within the terminal") String runId,

            @Doc("the exit code the shell reported; null until known")
            Optional<Integer> exitCode,

            @Doc("whether the shell reported the exit code") boolean completed,

            @Doc("where its output starts (an output cursor)")
            Decimal startCursor,

            @Doc("where its output ends; null until completed")
            Optional<Decimal> endCursor,

            @Doc(
                    "once completed, the tail of the command's own output, read from the terminal as the answer is made (never stored); "
                            + "null while running, after a broker restart, and in lomi_operation_cancel's answer")
            Optional<RunOutput> output) {

        /** The same result with the output tail read now. */
        public RunResult withOutput(Optional<RunOutput> tail) {
            return new RunResult(
                    workspaceId, panelId, terminalSessionId, runId, exitCode, completed, startCursor, endCursor, tail);
        }
    }

    /** The end of what a finished command printed: at most the broker's tail size (lomi.terminal.run.output-tail-bytes, default 8 KiB). */
    public record RunOutput(
            @Doc("normalized text (as lomi_terminal_read mode output), the command's echo excluded")
            String text,

            @Doc("where this text starts (an output cursor)")
            Decimal cursor,

            @Doc("where it ends: the command's endCursor") Decimal nextCursor,

            @Doc(
                    "whether the command printed more before cursor: read it with lomi_terminal_read mode command from startCursor")
            boolean truncated,

            @Doc("whether part of it was lost from the terminal's ring before it could be read")
            boolean gap) {}

    @Tag("terminal_interrupt")
    public record Interrupted(
            WorkspaceId workspaceId,
            Token panelId,
            Hex32 terminalSessionId,
            @Doc("the run that got Ctrl+C") OperationId targetOperationId,

            @Doc("always true: one Ctrl+C was written (it does not prove the command ended)")
            boolean dispatched) {}

    /** The state of an ordered input. */
    public enum InputState {
        DISPATCHED,
        OUTCOME_UNKNOWN
    }

    @Tag("terminal_input")
    public record InputAcknowledged(
            WorkspaceId workspaceId,
            Token panelId,
            @Doc("the terminal") Hex32 terminalSessionId,
            @Doc("the sequence this acknowledges") Decimal inputSequence,

            @Doc("dispatched (written to the terminal) or outcome_unknown (may have been written)")
            InputState state,

            @Doc("whether this repeats an earlier acknowledgement (the same sequence and payload were not sent again)")
            boolean repeated,

            @Doc("the sequence to send next") Decimal nextInputSequence) {}

    /** The prompt state from the shell integration. */
    public enum Prompt {
        UNKNOWN,
        READY,
        EDITING,
        RUNNING
    }

    /** The modes terminal_output answers. */
    public enum OutputMode {
        OUTPUT,
        COMMAND,
        RAW
    }

    /** terminal_output (modes output, command, raw) or terminal_screen (mode screen). */
    @Tagged("kind")
    public sealed interface ReadResult {}

    public record Command(
            @Doc("the run") String runId,
            @Doc("its lomi_terminal_run operation") OperationId operationId,

            @Doc("whether the shell reported that the command started")
            boolean startedObserved,

            @Doc("whether the shell reported its exit code") boolean completed,
            @Doc("its exit code; null until completed") Optional<Integer> exitCode,
            @Doc("where its output starts") Decimal startCursor,
            @Doc("where it ends; null until completed") Optional<Decimal> endCursor) {}

    @Tag("terminal_output")
    public record Output(
            @Doc("the mode read") OutputMode mode,
            @Doc("the terminal") Hex32 terminalSessionId,

            @Doc(
                    "modes output and command: normalized text (escape sequences and controls other than \\n \\r \\t removed); null in mode raw")
            Optional<String> text,

            @Doc("mode raw: the bytes, base64; null in the other modes")
            Optional<String> data,

            @Doc("where this page starts") Decimal cursor,
            @Doc("where to continue") Decimal nextCursor,
            @Doc("the oldest position still retained") Decimal availableFrom,

            @Doc("whether output before cursor was lost (the ring moved on)")
            boolean gap,

            @Doc("whether this page reaches the current end")
            boolean end,

            @Doc("the prompt state from shell integration") Prompt prompt,
            @Doc("whether the shell exited") boolean exited,
            @Doc("the shell's exit code, once exited") Optional<Integer> shellExitCode,

            @Doc("whether this session holds the input lease")
            boolean leaseHeld,

            @Doc("the inputSequence lomi_terminal_input expects next")
            Decimal nextInputSequence,

            @Doc("how much output (raw bytes) the terminal has produced")
            Decimal streamSequence,

            @Doc("how much of it the screen reflects at least (the screen parses output before it is counted here)")
            Decimal parsedSequence,

            @Doc("mode command: the requested run; null otherwise")
            Optional<Command> command)
            implements ReadResult {}

    public record ScreenCursor(
            @Doc("zero-based row") int row,
            @Doc("zero-based column") int column,
            @Doc("whether the cursor is shown") boolean visible) {}

    /** Which screen buffer is shown. */
    public enum Buffer {
        NORMAL,
        ALTERNATE
    }

    @Tag("terminal_screen")
    public record Screen(
            @Doc("the terminal") Hex32 terminalSessionId,
            @Doc("width") int columns,
            @Doc("height") int rows,
            ScreenCursor cursor,

            @Doc("normal, or alternate (a full-screen program)")
            Buffer buffer,

            @Doc("the visible rows, top to bottom, trailing blanks trimmed; only the top rows that fit in maxBytes")
            List<String> lines,

            @Doc("the lines joined by \\n (at most maxBytes bytes of UTF-8)")
            String text,

            @Doc("whether rows were left out to keep text within maxBytes")
            boolean truncated,

            @Doc("the title the program set (\"\" when none)")
            String title,

            @Doc("how much output (raw bytes) the terminal has produced")
            Decimal streamSequence,

            @Doc("how much output the screen reflects at least (≥ minimumParsedSequence when one was given)")
            Decimal parsedSequence,

            @Doc("whether output arrived that this screen may not show yet (parsedSequence < streamSequence)")
            boolean parserPending,

            @Doc("whether the shell exited") boolean exited)
            implements ReadResult {}

    /** panel_control (a terminal's input lease) or android_panel_control (a device's). */
    @Tagged("kind")
    public sealed interface ControlResult {}

    @Tag("panel_control")
    public record Controlled(
            WorkspaceId workspaceId,
            Token panelId,
            @Doc("claim or release") ControlAction action,
            @Doc("the terminal") Hex32 terminalSessionId,

            @Doc("claim: your new input lease; release: null")
            Optional<Hex32> leaseId,

            @Doc("whether this session now controls the terminal's input")
            boolean controlled)
            implements ControlResult {}

    @Tag("android_panel_control")
    public record AndroidControlled(
            WorkspaceId workspaceId,
            Token panelId,
            @Doc("claim or release") ControlAction action,
            Token deviceId,
            @Doc("the boot the lease belongs to") Token generation,

            @Doc("claim: your new input lease; release: null")
            Optional<Hex32> leaseId,

            @Doc("whether this session now controls the device's input")
            boolean controlled)
            implements ControlResult {}
}
