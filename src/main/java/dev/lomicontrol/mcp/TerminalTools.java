package dev.lomicontrol.mcp;

import static dev.lomicontrol.mcp.Schemas.arrayOf;
import static dev.lomicontrol.mcp.Schemas.bool;
import static dev.lomicontrol.mcp.Schemas.constant;
import static dev.lomicontrol.mcp.Schemas.decimal;
import static dev.lomicontrol.mcp.Schemas.exactlyOne;
import static dev.lomicontrol.mcp.Schemas.fieldsOf;
import static dev.lomicontrol.mcp.Schemas.form;
import static dev.lomicontrol.mcp.Schemas.hex32;
import static dev.lomicontrol.mcp.Schemas.hex40;
import static dev.lomicontrol.mcp.Schemas.integer;
import static dev.lomicontrol.mcp.Schemas.nullable;
import static dev.lomicontrol.mcp.Schemas.object;
import static dev.lomicontrol.mcp.Schemas.oneLine;
import static dev.lomicontrol.mcp.Schemas.oneOfStrings;
import static dev.lomicontrol.mcp.Schemas.string;
import static dev.lomicontrol.mcp.Schemas.token;
import static dev.lomicontrol.mcp.Schemas.withDefault;

import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/**
 * Terminal tools (SPEC §9, §10 Terminals; reference fields of research/lomi.md §1e, §5): create,
 * run a command, type input, interrupt, read. Writing needs the input lease ({@code leaseId});
 * cursors and counters are decimal strings.
 */
final class TerminalTools {

    static final String CREATE = "lomi_terminal_create";
    static final String RUN = "lomi_terminal_run";
    static final String INPUT = "lomi_terminal_input";
    static final String INTERRUPT = "lomi_terminal_interrupt";
    static final String READ = "lomi_terminal_read";

    static final String[] KEYS = {"enter", "tab", "escape", "backspace", "ctrl_c", "ctrl_d"};
    static final String[] PROMPTS = {"unknown", "ready", "editing", "running"};

    /** A relative path: not starting with '/', no NUL, no backslash ({@code ..} and links are checked natively). */
    static final String RELATIVE_PATH_PATTERN = "^[^/\\u0000\\\\][^\\u0000\\\\]*$";
    /** A command: one line, no control characters. */
    static final String COMMAND_PATTERN = "^[^\\u0000-\\u001f\\u007f]+$";
    /** Typed text: anything but NUL. */
    static final String TEXT_PATTERN = "^[^\\u0000]*$";

    private static final String SCOPE = "terminal.execute";

    private TerminalTools() {}

    static List<ToolDefinition> all() {
        return List.of(create(), run(), input(), interrupt(), read());
    }

    private static ToolDefinition create() {
        ObjectNode input = object().property("workspaceId", token("the workspace that gets the terminal's panel"))
                .property("cwdRelative", withDefault(string(1, 4096, RELATIVE_PATH_PATTERN, "the working directory, relative to the project root "
                        + "and inside it (default '.')"), "."))
                .property("profileId", oneOfStrings("the shell; must be the profile approved at pairing", "bash", "zsh"))
                .property("title", oneLine(256, "the panel's title"))
                .property("columns", withDefault(integer(20, 1024, "width in columns (default 120)"), 120))
                .property("rows", withDefault(integer(5, 1024, "height in rows (default 32)"), 32))
                .require("workspaceId").expectedRevision().durable().closed().build();
        return ToolDefinition.broker(CREATE, "Create a terminal",
                "Starts a real shell (bash or zsh, with shell integration) in a new terminal panel inside the project and gives this session "
                        + "its input lease. Returns an operation; its result is {kind:\"terminal_created\", workspaceId, panelId, tabId, "
                        + "terminalSessionId, leaseId, profileId, domainRevision}.",
                Effect.OP, SCOPE, input, OperationTools.operation());
    }

    private static ToolDefinition run() {
        ObjectNode input = target().property("command", string(1, 16384, COMMAND_PATTERN, "one shell command line (no newline or other "
                        + "control character); Enter is added"))
                .require("command").durable().closed().build();
        return ToolDefinition.broker(RUN, "Run a command",
                "Types one single-line command at an observed ready prompt and presses Enter. The operation stays running until the shell "
                        + "reports the exit code; poll lomi_operation_get. It settles succeeded (exit 0), failed (non-zero), cancelled (after "
                        + "lomi_operation_cancel, exit 130) or outcome_unknown (no exit observed, lease lost); completion is never inferred from "
                        + "silence. Its result is {kind:\"terminal_run\", terminalSessionId, runId, exitCode (null until known), completed, "
                        + "startCursor, endCursor (null until completed)}; read the output with lomi_terminal_read mode command.",
                Effect.OP, SCOPE, input, OperationTools.operation());
    }

    private static ToolDefinition input() {
        ObjectNode typed = object().property("type", oneOfStrings("text or key", "text", "key"))
                .property("text", string(1, 65536, TEXT_PATTERN, "type=text: the exact text to type (no Enter is added)"))
                .property("key", oneOfStrings("type=key: the key to press", KEYS)).require("type").closed()
                .description("{type:\"text\", text} or {type:\"key\", key}").build();
        ObjectNode input = target()
                .property("inputSequence", string(1, 20, Schemas.POSITIVE_DECIMAL_PATTERN, "1 + the last sequence you sent on this terminal "
                        + "(nextInputSequence of lomi_terminal_read); resend the same number and payload to confirm an uncertain send"))
                .property("input", typed).require("inputSequence", "input").closed().build();
        ObjectNode variants = exactlyOne(
                form("{type:\"text\", text}", List.of("type", "text")).property("type", constant("text")).require("type", "text").build(),
                form("{type:\"key\", key}", List.of("type", "key")).property("type", constant("key")).require("type", "key").build());
        ObjectNode data = object().property("kind", constant("terminal_input")).property("terminalSessionId", hex32("the terminal"))
                .property("inputSequence", decimal("the sequence this acknowledges"))
                .property("state", oneOfStrings("dispatched (written to the terminal) or outcome_unknown (may have been written)", "dispatched",
                        "outcome_unknown"))
                .property("repeated", bool("whether this repeats an earlier acknowledgement (the same sequence and payload were not sent again)"))
                .property("nextInputSequence", decimal("the sequence to send next"))
                .require("kind", "terminalSessionId", "inputSequence", "state", "repeated", "nextInputSequence").build();
        return ToolDefinition.broker(INPUT, "Type into a terminal",
                "Sends exact text or one key (enter, tab, escape, backspace, ctrl_c, ctrl_d) to a terminal whose lease you hold. Not durable: "
                        + "ordered by inputSequence = last + 1 (else REVISION_CONFLICT); the same sequence with the same payload returns the "
                        + "stored acknowledgement without typing again, a different payload is IDEMPOTENCY_CONFLICT.",
                Effect.MUT, SCOPE, input, data).withConstraint(object().property("input", variants).build());
    }

    private static ToolDefinition interrupt() {
        ObjectNode input = target().property("operationId", hex40("the lomi_terminal_run operation to interrupt")).require("operationId")
                .durable().closed().build();
        return ToolDefinition.broker(INTERRUPT, "Interrupt a command",
                "Sends Ctrl+C once to the terminal's latest command while it is observed running (else TARGET_BUSY). Reports the dispatch, "
                        + "not the exit: watch the run operation. Returns an operation; its result is {kind:\"terminal_interrupt\", "
                        + "targetOperationId, dispatched:true}.",
                Effect.OP, SCOPE, input, OperationTools.operation());
    }

    private static ToolDefinition read() {
        ObjectNode input = object().property("workspaceId", token("its workspace")).property("panelId", token("the terminal's panel"))
                .property("terminalSessionId", hex32("the terminal process"))
                .property("mode", withDefault(oneOfStrings("output (normalized text, default), command (one run's output), raw (bytes as "
                        + "base64) or screen (the rendered screen)", "output", "command", "raw", "screen"), "output"))
                .property("cursor", decimal("where to start: nextCursor of the previous read (output and raw count bytes separately)"))
                .property("maxBytes", withDefault(integer(1, 65536, "at most this many bytes (default 16384)"), 16384))
                .property("operationId", hex40("mode command only (and required there): the lomi_terminal_run operation"))
                .require("workspaceId", "panelId", "terminalSessionId").closed().build();
        ObjectNode modes = exactlyOne(
                form("{mode:\"command\", operationId}", fieldsOf(input)).property("mode", constant("command")).require("mode", "operationId")
                        .build(),
                form("{mode?: output|raw|screen} without operationId", fieldsOf(input, "operationId"))
                        .property("mode", oneOfStrings(null, "output", "raw", "screen")).build());
        ObjectNode data = exactlyOne(output("output", "command").require("text").build(), output("raw").require("data").build(), screen());
        data.put("type", "object");
        data.put("description", "terminal_output (modes output, command, raw) or terminal_screen (mode screen)");
        return ToolDefinition.broker(READ, "Read a terminal",
                "Reads without writing. output/command/raw: {kind:\"terminal_output\", text (or data in raw, base64), cursor, nextCursor, "
                        + "availableFrom, gap (bytes were lost before cursor), end, prompt, exited, shellExitCode, leaseHeld, nextInputSequence, "
                        + "streamSequence, command}; a cursor past the end is CURSOR_EXPIRED. screen: {kind:\"terminal_screen\", columns, rows, "
                        + "cursor, buffer, lines, text, title, streamSequence, exited}.",
                Effect.RO, "terminal.read", input, data).withConstraint(modes);
    }

    /** The fields that name one live terminal and the lease to write to it. */
    private static Schemas.ObjectSchema target() {
        return object().property("workspaceId", token("its workspace")).property("panelId", token("the terminal's panel"))
                .property("terminalSessionId", hex32("the terminal process")).property("leaseId", hex32("your input lease"))
                .require("workspaceId", "panelId", "terminalSessionId", "leaseId");
    }

    /** A {@code terminal_output} answer of the given modes (the caller requires text or data). */
    private static Schemas.ObjectSchema output(String... modes) {
        ObjectNode command = object().property("runId", string("the run")).property("operationId", hex40("its lomi_terminal_run operation"))
                .property("startedObserved", bool("whether the shell reported that the command started"))
                .property("completed", bool("whether the shell reported its exit code"))
                .property("exitCode", nullable(integer("its exit code; null until completed")))
                .property("startCursor", decimal("where its output starts"))
                .property("endCursor", nullable(decimal("where it ends; null until completed")))
                .require("runId", "startedObserved", "completed", "exitCode", "startCursor", "endCursor").build();
        return object().property("kind", constant("terminal_output")).property("mode", oneOfStrings("the mode read", modes))
                .property("terminalSessionId", hex32("the terminal"))
                .property("text", string("modes output and command: normalized text (escape sequences and controls other than \\n \\r \\t removed)"))
                .property("data", string("mode raw: the bytes, base64"))
                .property("cursor", decimal("where this page starts")).property("nextCursor", decimal("where to continue"))
                .property("availableFrom", decimal("the oldest position still retained"))
                .property("gap", bool("whether output before cursor was lost (the ring moved on)"))
                .property("end", bool("whether this page reaches the current end"))
                .property("prompt", oneOfStrings("the prompt state from shell integration", PROMPTS))
                .property("exited", bool("whether the shell exited"))
                .property("shellExitCode", nullable(integer("the shell's exit code, once exited")))
                .property("leaseHeld", bool("whether this session holds the input lease"))
                .property("nextInputSequence", decimal("the inputSequence lomi_terminal_input expects next"))
                .property("streamSequence", decimal("how much output the terminal has produced"))
                .property("command", nullable(command).put("description", "the latest (or, in mode command, the requested) run; null when none"))
                .require("kind", "mode", "terminalSessionId", "cursor", "nextCursor", "availableFrom", "gap", "end", "prompt", "exited",
                        "shellExitCode", "leaseHeld", "nextInputSequence", "streamSequence", "command");
    }

    private static ObjectNode screen() {
        ObjectNode cursor = object().property("row", integer("zero-based row")).property("column", integer("zero-based column"))
                .property("visible", bool("whether the cursor is shown")).require("row", "column", "visible").build();
        return object().property("kind", constant("terminal_screen")).property("terminalSessionId", hex32("the terminal"))
                .property("columns", integer("width")).property("rows", integer("height")).property("cursor", cursor)
                .property("buffer", oneOfStrings("normal, or alternate (a full-screen program)", "normal", "alternate"))
                .property("lines", arrayOf(string("one row, trailing blanks trimmed"), "the visible rows, top to bottom"))
                .property("text", string("the lines joined by \\n")).property("title", nullable(string("the title the program set")))
                .property("streamSequence", decimal("how much output the screen reflects"))
                .property("exited", bool("whether the shell exited"))
                .require("kind", "terminalSessionId", "columns", "rows", "cursor", "buffer", "lines", "text", "title", "streamSequence", "exited")
                .build();
    }
}
