package dev.lomicontrol.terminal.api;

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
 * declared once, with its input records. Writing needs the input lease
 * ({@code leaseId}); cursors and counters are decimal strings. What they answer is in
 * {@link TerminalResults}.
 */
public final class TerminalSpecs {

    private TerminalSpecs() {}

    private static final String EXECUTE = "terminal.execute";

    /** A command line of lomi_terminal_run and lomi_terminal_create: one line without control characters, ≤ 16 KiB. */
    static final String COMMAND_LINE = "[^\\u0000-\\u001f\\u007f]+";

    static final int COMMAND_MAX = 16384;

    // --- inputs

    /** The shells a terminal can run. */
    public enum Profile {
        BASH,
        ZSH
    }

    public record Create(
            WorkspaceId workspaceId,

            @Doc("\"\" = the project root")
            @Len(min = 0, max = 4096)
            @Matches("(?:[^/\\u0000\\\\][^\\u0000\\\\]*)?")
            @Default("\"\"")
            String cwdRelative,

            @Doc("bash or zsh; null = the default") Optional<Profile> profileId,

            Optional<DisplayName> title,

            @Range(min = 20, max = 1024) @Default("120") int columns,

            @Range(min = 5, max = 1024) @Default("32") int rows,

            @Len(min = 1, max = COMMAND_MAX) @Matches(COMMAND_LINE)
            Optional<String> command,

            @Doc("the domainRevision") Decimal expectedRevision,

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
            WorkspaceId workspaceId,
            Token panelId,
            Hex32 terminalSessionId,
            Hex32 leaseId,

            @Doc("one line; Enter is added") @Len(min = 1, max = COMMAND_MAX) @Matches(COMMAND_LINE)
            String command,

            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable {}

    public record Interrupt(
            WorkspaceId workspaceId,
            Token panelId,
            Hex32 terminalSessionId,
            Hex32 leaseId,

            @Doc("a lomi_terminal_run operation") OperationId operationId,

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
            @Doc("no Enter is added") @Len(min = 1, max = 65536) @Matches("[^\\u0000]+")
            String text) implements Payload {

        public Text {
            if (text.getBytes(StandardCharsets.UTF_8).length > 65536) {
                throw new LomiException(ErrorCode.INVALID_ARGUMENT, "input text is at most 65536 bytes of UTF-8");
            }
        }
    }

    @Tag("key")
    public record Press(Key key) implements Payload {}

    public record Input(
            WorkspaceId workspaceId,
            Token panelId,
            Hex32 terminalSessionId,
            Hex32 leaseId,

            @Doc("nextInputSequence of lomi_terminal_read; resend the same to retry")
            Decimal inputSequence,

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
            WorkspaceId workspaceId,
            Token panelId,
            Hex32 terminalSessionId,

            @Doc("output: text; command: one run's output; screen: rendered; raw: base64") @Default("\"output\"")
            Mode mode,

            @Doc("mode screen: a streamSequence read earlier")
            Optional<Decimal> minimumParsedSequence,

            @Doc("modes output, command, raw: nextCursor") Optional<Decimal> cursor,

            @Range(min = 1, max = 65536) @Default("16384") int maxBytes,

            @Doc("mode command: the lomi_terminal_run operation")
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
            WorkspaceId workspaceId,
            Token panelId,
            Hex32 terminalSessionId,

            @Doc("claim needs the admin's approval") ControlAction action,

            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Control, Durable {}

    public record AndroidControl(
            WorkspaceId workspaceId,
            @Doc("the device's panel") Token panelId,
            Token deviceId,
            Token generation,

            @Doc("claim needs the admin's approval") ControlAction action,

            Decimal expectedRevision,

            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Control, Durable, LayoutBased {}

    // --- the tools

    public static final ToolSpec<Control> PANEL_CONTROL = ToolSpec.operation(
            "lomi_panel_control",
            "Claim or release input",
            EXECUTE,
            "--I-",
            Control.class,
            TerminalResults.ControlResult.class,
            "Claims (with the admin's approval) or releases the input lease of a terminal panel.");

    public static final ToolSpec<Create> CREATE = ToolSpec.operation(
                    "lomi_terminal_create",
                    "Create a terminal",
                    EXECUTE,
                    "-DIO",
                    Create.class,
                    TerminalResults.Created.class,
                    "Starts a shell (bash or zsh) in a new terminal panel and gives you its input lease; command runs at its first prompt (result.run).")
            .waiting("ms to wait for the prompt, or the command's end");

    public static final ToolSpec<Run> RUN = ToolSpec.operation(
                    "lomi_terminal_run",
                    "Run a command",
                    EXECUTE,
                    "-DIO",
                    Run.class,
                    TerminalResults.RunResult.class,
                    "Runs one command line at the ready prompt. With waitMs the answer carries exitCode and the output's tail.")
            .waiting("ms to wait for the command to end (0 = up to 750 ms)");

    public static final ToolSpec<Input> INPUT = ToolSpec.ordered(
            "lomi_terminal_input",
            "Type into a terminal",
            EXECUTE,
            "-DIO",
            Input.class,
            TerminalResults.InputAcknowledged.class,
            "Types text or one key into a terminal whose lease you hold; resending an inputSequence never types twice.");

    public static final ToolSpec<Interrupt> INTERRUPT = ToolSpec.operation(
            "lomi_terminal_interrupt",
            "Interrupt a command",
            EXECUTE,
            "-DIO",
            Interrupt.class,
            TerminalResults.Interrupted.class,
            "Sends Ctrl+C once to the running command; the run operation reports the exit.");

    public static final ToolSpec<Read> READ = ToolSpec.read(
                    "lomi_terminal_read",
                    "Read a terminal",
                    "terminal.read",
                    "R-I-",
                    Read.class,
                    TerminalResults.ReadResult.class,
                    "Reads a terminal: output (text), command (one run's output), screen (rendered) or raw (base64). Never writes.")
            .waiting("modes output, command: ms to wait for output past the cursor");

    public static final List<ToolSpec<?>> ALL = List.of(PANEL_CONTROL, CREATE, RUN, INPUT, INTERRUPT, READ);
}
