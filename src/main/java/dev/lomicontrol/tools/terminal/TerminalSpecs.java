package dev.lomicontrol.tools.terminal;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.tools.Decimal;
import dev.lomicontrol.tools.Default;
import dev.lomicontrol.tools.DisplayName;
import dev.lomicontrol.tools.Doc;
import dev.lomicontrol.tools.Durable;
import dev.lomicontrol.tools.Hex32;
import dev.lomicontrol.tools.LayoutBased;
import dev.lomicontrol.tools.Len;
import dev.lomicontrol.tools.Matches;
import dev.lomicontrol.tools.Range;
import dev.lomicontrol.tools.Tag;
import dev.lomicontrol.tools.Tagged;
import dev.lomicontrol.tools.Token;
import dev.lomicontrol.tools.ToolSpec;
import dev.lomicontrol.tools.Untagged;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * The terminal tools (SPEC §10 Terminals; reference research/lomi.md §1e, §5) and
 * {@code lomi_panel_control}, whose terminal form claims or releases a terminal's input: each
 * declared once, with its input and output records. Writing needs the input lease
 * ({@code leaseId}); cursors and counters are decimal strings.
 */
public final class TerminalSpecs {

    private TerminalSpecs() {}

    private static final String EXECUTE = "terminal.execute";

    // --- inputs

    /** The shells a terminal can run. */
    public enum Profile {
        BASH,
        ZSH
    }

    public record Create(
            @Doc("the workspace that gets the terminal's panel")
            WorkspaceId workspaceId,

            @Doc(
                    "the working directory relative to the project root and inside it; \"\" (the default) or \".\" is the project root")
            @Len(min = 0, max = 4096)
            @Matches("(?:[^/\\u0000\\\\][^\\u0000\\\\]*)?")
            @Default("\"\"")
            String cwdRelative,

            @Doc("the shell, bash or zsh; null or absent: the default profile of the terminal settings")
            Optional<Profile> profileId,

            @Doc("the panel's title; null or absent: the profile's name")
            Optional<DisplayName> title,

            @Doc("width in columns (default 120)") @Range(min = 20, max = 1024) @Default("120")
            int columns,

            @Doc("height in rows (default 32)") @Range(min = 5, max = 1024) @Default("32")
            int rows,

            @Doc("the domainRevision the layout change is based on")
            Decimal expectedRevision,

            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable, LayoutBased {

        public Create {
            String path = cwdRelative.endsWith("/") && cwdRelative.length() > 1
                    ? cwdRelative.substring(0, cwdRelative.length() - 1)
                    : cwdRelative;
            if (!path.isEmpty() && !path.equals(".")) {
                for (String part : path.split("/", -1)) {
                    if (part.isEmpty() || part.equals("..")) {
                        throw new LomiException(
                                ErrorCode.INVALID_ARGUMENT, "cwdRelative may not contain '..' or empty components");
                    }
                }
            }
        }

        /** The directory relative to the project root, {@code "."} for the root itself. */
        public String directory() {
            String path = cwdRelative.endsWith("/") && cwdRelative.length() > 1
                    ? cwdRelative.substring(0, cwdRelative.length() - 1)
                    : cwdRelative;
            return path.isEmpty() ? "." : path;
        }
    }

    public record Run(
            @Doc("its workspace") WorkspaceId workspaceId,
            @Doc("the terminal's panel") Token panelId,
            @Doc("the terminal process") Hex32 terminalSessionId,
            @Doc("your input lease") Hex32 leaseId,

            @Doc("one shell command line (no newline or other control character); Enter is added")
            @Len(min = 1, max = 16384)
            @Matches("[^\\u0000-\\u001f\\u007f]+")
            String command,

            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable {}

    public record Interrupt(
            @Doc("its workspace") WorkspaceId workspaceId,
            @Doc("the terminal's panel") Token panelId,
            @Doc("the terminal process") Hex32 terminalSessionId,
            @Doc("your input lease") Hex32 leaseId,

            @Doc("the lomi_terminal_run operation to interrupt")
            OperationId operationId,

            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable {}

    /** The keys lomi_terminal_input can press. */
    public enum Key {
        ENTER,
        TAB,
        ESCAPE,
        BACKSPACE,
        CTRL_C,
        CTRL_D
    }

    /** {@code {type:"text", text}} or {@code {type:"key", key}}. */
    @Tagged("type")
    public sealed interface Payload {}

    @Tag("text")
    public record Text(
            @Doc("the exact text to type (no Enter is added): 1-65536 bytes of UTF-8 without NUL")
            @Len(min = 1, max = 65536)
            @Matches("[^\\u0000]+")
            String text)
            implements Payload {

        public Text {
            if (text.getBytes(StandardCharsets.UTF_8).length > 65536) {
                throw new LomiException(ErrorCode.INVALID_ARGUMENT, "input text is at most 65536 bytes of UTF-8");
            }
        }
    }

    @Tag("key")
    public record Press(@Doc("the key to press") Key key) implements Payload {}

    public record Input(
            @Doc("its workspace") WorkspaceId workspaceId,
            @Doc("the terminal's panel") Token panelId,
            @Doc("the terminal process") Hex32 terminalSessionId,
            @Doc("your input lease") Hex32 leaseId,

            @Doc(
                    "1 + the last sequence you sent on this terminal (nextInputSequence of lomi_terminal_read); resend the same number and "
                            + "payload to confirm an uncertain send")
            Decimal inputSequence,

            @Doc("{type:\"text\", text} or {type:\"key\", key}")
            Payload input) {

        public Input {
            if (inputSequence.asLong() < 1) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT,
                        "inputSequence is a decimal number from 1 (nextInputSequence of lomi_terminal_read)");
            }
        }
    }

    /** What lomi_terminal_read reads. */
    public enum Mode {
        OUTPUT,
        COMMAND,
        SCREEN,
        RAW
    }

    public record Read(
            @Doc("its workspace") WorkspaceId workspaceId,
            @Doc("the terminal's panel") Token panelId,
            @Doc("the terminal process") Hex32 terminalSessionId,

            @Doc(
                    "output (normalized text, default), command (one run's output), screen (the rendered screen) or raw (bytes as base64)")
            @Default("\"output\"")
            Mode mode,

            @Doc(
                    "mode screen only: the screen must reflect at least this much output (a streamSequence read earlier); more than the "
                            + "terminal has produced is REVISION_CONFLICT")
            Optional<Decimal> minimumParsedSequence,

            @Doc(
                    "modes output, command, raw: where to start, the nextCursor of the previous read (output and raw count bytes separately)")
            Optional<Decimal> cursor,

            @Doc("at most this many bytes (default 16384); in mode screen, of the screen's text")
            @Range(min = 1, max = 65536)
            @Default("16384")
            int maxBytes,

            @Doc("mode command only (and required there): the lomi_terminal_run operation")
            Optional<OperationId> operationId) {

        public Read {
            if (operationId.isPresent() != (mode == Mode.COMMAND)) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT,
                        mode == Mode.COMMAND
                                ? "mode command needs operationId (a lomi_terminal_run operation)"
                                : "operationId is only for mode command");
            }
            if (mode == Mode.SCREEN && cursor.isPresent()) {
                throw new LomiException(ErrorCode.INVALID_ARGUMENT, "mode screen takes no cursor");
            }
            if (mode != Mode.SCREEN && minimumParsedSequence.isPresent()) {
                throw new LomiException(ErrorCode.INVALID_ARGUMENT, "minimumParsedSequence is only for mode screen");
            }
        }
    }

    /** claim or release input. */
    public enum ControlAction {
        CLAIM,
        RELEASE
    }

    /** The reference's two forms: a terminal's input, or an Android device's (which this host cannot run). */
    @Untagged
    public sealed interface Control {}

    public record TerminalControl(
            @Doc("its workspace") WorkspaceId workspaceId,
            @Doc("the terminal's panel") Token panelId,
            @Doc("terminal form: the terminal process") Hex32 terminalSessionId,

            @Doc(
                    "claim (the admin approves; the previous holder's lease dies) or release (your lease dies; the shell keeps running)")
            ControlAction action,

            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Control, Durable {}

    public record AndroidControl(
            @Doc("its workspace") WorkspaceId workspaceId,
            @Doc("the device's panel") Token panelId,
            @Doc("Android form: the device") Token deviceId,
            @Doc("Android form: the device's generation") Token generation,

            @Doc(
                    "claim (the admin approves; the previous holder's lease dies) or release (your lease dies; the shell keeps running)")
            ControlAction action,

            @Doc("Android form: the domainRevision the claim is based on")
            Decimal expectedRevision,

            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Control, Durable, LayoutBased {}

    // --- outputs and results

    @Tag("terminal_created")
    public record Created(
            WorkspaceId workspaceId,
            @Doc("the new terminal's panel") Token panelId,
            @Doc("its tab") Token tabId,
            @Doc("the terminal process") Hex32 terminalSessionId,
            @Doc("your input lease") Hex32 leaseId,
            @Doc("the shell it runs") Profile profileId,
            @Doc("the layout's revision after the change") Decimal domainRevision,

            @Doc(
                    "whether the shell's prompt is ready for lomi_terminal_run as this answer is made (the reference's ready); null when "
                            + "the terminal is gone, and in lomi_operation_cancel's answer")
            Optional<Boolean> ready) {

        /** The same result with the prompt's state now (answers fill it from the live terminal; the stored result never has it). */
        public Created withReady(Optional<Boolean> now) {
            return new Created(workspaceId, panelId, tabId, terminalSessionId, leaseId, profileId, domainRevision, now);
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

    @Tag("panel_control")
    public record Controlled(
            WorkspaceId workspaceId,
            Token panelId,
            @Doc("claim or release") ControlAction action,
            @Doc("the terminal") Hex32 terminalSessionId,

            @Doc("claim: your new input lease; release: null")
            Optional<Hex32> leaseId,

            @Doc("whether this session now controls the terminal's input")
            boolean controlled) {}

    // --- the tools

    public static final ToolSpec<Control> PANEL_CONTROL = ToolSpec.operation(
            "lomi_panel_control",
            "Claim or release input",
            EXECUTE,
            "--I-",
            Control.class,
            Controlled.class,
            "Claims or releases the input of a panel. Terminal form {workspaceId, panelId, terminalSessionId, action}: claim asks the admin "
                    + "(up to 120 s; the operation is awaiting_user) and on approval gives this session a new input lease - the previous "
                    + "holder's lease dies, the shell keeps running; release ends this session's lease and never kills or types into the "
                    + "terminal. The Android form {workspaceId, panelId, deviceId, generation, action, expectedRevision} is accepted and "
                    + "answered HOST_UNQUALIFIED (this host runs no managed emulator). Result: {kind:\"panel_control\", workspaceId, panelId, "
                    + "action, terminalSessionId, leaseId, controlled}.");

    public static final ToolSpec<Create> CREATE = ToolSpec.operation(
                    "lomi_terminal_create",
                    "Create a terminal",
                    EXECUTE,
                    "-DIO",
                    Create.class,
                    Created.class,
                    "Starts a real shell (bash or zsh, with shell integration) in a new terminal panel inside the project and gives this session its "
                            + "input lease. cwdRelative \"\" is the project root. Returns an operation; its result is {kind:\"terminal_created\", "
                            + "workspaceId, panelId, tabId, terminalSessionId, leaseId, profileId, domainRevision, ready}. The shell's cwd is not a "
                            + "sandbox. With waitMs the answer comes once the shell shows its first ready prompt (ready:true), so "
                            + "lomi_terminal_run can follow at once.")
            .waiting(
                    "optional: wait up to this many milliseconds (0-25000; default 0 = answer at once) until the terminal exists and its "
                            + "prompt is ready (result.ready), then answer; a wait that ends first answers the operation as it stands. Never "
                            + "starts a second shell");

    public static final ToolSpec<Run> RUN = ToolSpec.operation(
                    "lomi_terminal_run",
                    "Run a command",
                    EXECUTE,
                    "-DIO",
                    Run.class,
                    RunResult.class,
                    "Types one single-line command at an observed ready prompt and presses Enter. The operation stays running until the shell reports "
                            + "the exit code; poll lomi_operation_get. It settles succeeded (exit 0), failed (non-zero), cancelled (after "
                            + "lomi_operation_cancel, exit 130) or outcome_unknown (no exit observed, lease lost); completion is never inferred from "
                            + "silence. Its result is {kind:\"terminal_run\", workspaceId, panelId, terminalSessionId, runId, exitCode (null until "
                            + "known), completed, startCursor, endCursor (null until completed), output}; read the output with lomi_terminal_read mode "
                            + "command. With waitMs (e.g. 20000) one call usually does it all: the answer comes when the command ends, with its exit "
                            + "code and output = the tail of what the command printed.")
            .waiting(
                    "optional: wait up to this many milliseconds (0-25000; default 0 = up to 750 ms) until the command ends, then answer "
                            + "with its exitCode and output (the tail of its own output); a wait that ends first answers running with the same "
                            + "operationId - wait again with lomi_operation_get {operationId, waitMs}. Never types the command twice");

    public static final ToolSpec<Input> INPUT = ToolSpec.ordered(
            "lomi_terminal_input",
            "Type into a terminal",
            EXECUTE,
            "-DIO",
            Input.class,
            InputAcknowledged.class,
            "Sends exact text or one key (enter, tab, escape, backspace, ctrl_c, ctrl_d) to a terminal whose lease you hold. Not durable: "
                    + "ordered by inputSequence = last + 1 (else REVISION_CONFLICT); the same sequence with the same payload returns the "
                    + "stored acknowledgement without typing again, a different payload is IDEMPOTENCY_CONFLICT.");

    public static final ToolSpec<Interrupt> INTERRUPT = ToolSpec.operation(
            "lomi_terminal_interrupt",
            "Interrupt a command",
            EXECUTE,
            "-DIO",
            Interrupt.class,
            Interrupted.class,
            "Sends Ctrl+C once to the terminal's latest command while it is observed running (else TARGET_BUSY). Reports the dispatch, not the "
                    + "exit: watch the run operation. Returns an operation; its result is {kind:\"terminal_interrupt\", workspaceId, panelId, "
                    + "terminalSessionId, targetOperationId, dispatched:true}.");

    public static final ToolSpec<Read> READ = ToolSpec.read(
                    "lomi_terminal_read",
                    "Read a terminal",
                    "terminal.read",
                    "R-I-",
                    Read.class,
                    ReadResult.class,
                    "Reads without writing. output/command/raw: {kind:\"terminal_output\", text (or data in raw, base64), cursor, nextCursor, "
                            + "availableFrom, gap (bytes were lost before cursor), end, prompt, exited, shellExitCode, leaseHeld, nextInputSequence, "
                            + "streamSequence, parsedSequence, command}; a cursor past the end is CURSOR_EXPIRED. screen: {kind:\"terminal_screen\", "
                            + "columns, rows, cursor, buffer, lines, text, title, streamSequence, parsedSequence, parserPending, exited}; "
                            + "minimumParsedSequence (a streamSequence read earlier) makes sure the screen reflects at least that output. "
                            + "waitMs (modes output and command) waits for output past the cursor.")
            .waiting(
                    "optional, modes output and command: when nothing follows the cursor yet, wait up to this many milliseconds (0-25000; "
                            + "default 0 = answer at once) for new output (mode command: or the command's end); ignored in modes screen and raw");

    public static final List<ToolSpec<?>> ALL = List.of(PANEL_CONTROL, CREATE, RUN, INPUT, INTERRUPT, READ);
}
