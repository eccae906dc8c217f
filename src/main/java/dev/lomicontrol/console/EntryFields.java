package dev.lomicontrol.console;

import dev.lomicontrol.tools.ToolSelection;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The fields lomi-control owns in its {@code lomi-control} entry, per client shape, and how a
 * found entry compares with the one {@code client register} would write. Every other field of the
 * entry (env, disabled, autoApprove, trust, timeout, …) belongs to the user and is never read or
 * written.
 */
final class EntryFields {

    /** Codex's wait for {@code initialize}: the helper answers in about 1 s, a loaded 2-core machine can take several. */
    static final int CODEX_STARTUP_TIMEOUT_SEC = 30;
    /** Codex's wait per tool call: the helper bounds every forwarded call at 30 s (25 s {@code waitMs} plus margin); twice that. */
    static final int CODEX_TOOL_TIMEOUT_SEC = 60;

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String KEY = "[0-9a-f]{64}";

    /** How {@code register} treats a value the file already has. */
    enum Rule {
        /** Ours: set to our value whenever it differs. */
        OWNED,
        /** A number of ours that a larger value also satisfies (a user's higher timeout stays). */
        AT_LEAST,
        /** Written only when missing; any value the user set stays. */
        DEFAULT;

        boolean satisfiedBy(@Nullable JsonNode found, JsonNode ours) {
            if (found == null) {
                return false;
            }
            return switch (this) {
                case OWNED -> found.equals(ours);
                case AT_LEAST -> found.isIntegralNumber() && found.asLong() >= ours.asLong();
                case DEFAULT -> true;
            };
        }
    }

    record Field(String name, JsonNode value, Rule rule) {}

    /**
     * {@code client list}'s judgement of one entry: its state, unless current what differs, and the
     * tool selection its args give the helper (empty when the entry is not in the shape register
     * writes, or there is none).
     */
    record Verdict(EntryState state, List<String> differences, Optional<ToolSelection> selection) {

        Verdict(EntryState state, List<String> differences) {
            this(state, differences, Optional.empty());
        }
    }

    private EntryFields() {}

    /** The fields {@code register} writes for {@code format}, in the order a new entry lists them. */
    static List<Field> of(McpClient.Format format, McpEntry entry) {
        ArrayNode args = NODES.arrayNode();
        entry.args().forEach(args::add);
        return switch (format) {
            case MCP_SERVERS -> List.of(owned("command", NODES.stringNode(entry.command())), owned("args", args));
            case VSCODE_SERVERS ->
                List.of(
                        owned("type", NODES.stringNode("stdio")),
                        owned("command", NODES.stringNode(entry.command())),
                        owned("args", args));
            case ZED ->
                List.of(
                        new Field("source", NODES.stringNode("custom"), Rule.DEFAULT),
                        owned("command", NODES.stringNode(entry.command())),
                        owned("args", args));
            case OPENCODE -> {
                ArrayNode command = NODES.arrayNode().add(entry.command());
                entry.args().forEach(command::add);
                yield List.of(
                        owned("type", NODES.stringNode("local")),
                        owned("command", command),
                        new Field("enabled", NODES.booleanNode(true), Rule.DEFAULT));
            }
            case CODEX_TOML ->
                List.of(
                        owned("command", NODES.stringNode(entry.command())),
                        owned("args", args),
                        new Field("startup_timeout_sec", NODES.numberNode(CODEX_STARTUP_TIMEOUT_SEC), Rule.AT_LEAST),
                        new Field("tool_timeout_sec", NODES.numberNode(CODEX_TOOL_TIMEOUT_SEC), Rule.AT_LEAST));
        };
    }

    /**
     * Compares a found entry's fields with {@code wanted}: current when every field is satisfied;
     * stale when it still has the shape register writes (an absolute command, {@code --mcp
     * --discovery-file <abs> --discovery-key <hex>}, optionally a tool selection) but another
     * launcher, data directory or key, or lacks a field an older version did not write; hand-edited
     * when one of our fields was changed into something register never writes. The tool selection is
     * the user's choice, not a difference: any valid one is current, and the verdict reports it.
     * Without {@code wanted} (no key yet) it is just present.
     */
    static Verdict judge(McpClient.Format format, Map<String, JsonNode> found, Optional<McpEntry> wanted) {
        Optional<McpEntry> ours = shaped(format, found);
        Optional<ToolSelection> selection = ours.flatMap(McpEntry::selection);
        if (wanted.isEmpty()) {
            return new Verdict(EntryState.PRESENT, List.of(), selection);
        }
        McpEntry want = wanted.get().base();
        Map<String, JsonNode> compared = new LinkedHashMap<>(found);
        ours.ifPresent(entry -> of(format, entry.base()).stream()
                .filter(field -> isCommandField(format, field.name()))
                .forEach(field -> compared.put(field.name(), field.value())));
        List<String> handEdited = new ArrayList<>();
        List<String> stale = new ArrayList<>();
        boolean commandOk = true;
        for (Field field : of(format, want)) {
            JsonNode value = compared.get(field.name());
            if (field.rule().satisfiedBy(value, field.value())) {
                continue;
            }
            if (isCommandField(format, field.name())) {
                commandOk = false;
            } else if (value == null) {
                stale.add(field.name() + " missing");
            } else {
                handEdited.add(field.name());
            }
        }
        if (!commandOk) {
            if (ours.isPresent()) {
                stale.addAll(0, whatChanged(ours.get().base(), want));
            } else {
                handEdited.add(0, format == McpClient.Format.OPENCODE ? "command" : "command/args");
            }
        }
        if (!handEdited.isEmpty()) {
            return new Verdict(EntryState.HAND_EDITED, handEdited, selection);
        }
        return new Verdict(stale.isEmpty() ? EntryState.CURRENT : EntryState.STALE, stale, selection);
    }

    private static boolean isCommandField(McpClient.Format format, String name) {
        return name.equals("command") || (name.equals("args") && format != McpClient.Format.OPENCODE);
    }

    /** The found command and args when they have the shape register writes, else empty. */
    static Optional<McpEntry> shaped(McpClient.Format format, Map<String, JsonNode> found) {
        List<String> line = new ArrayList<>();
        if (format == McpClient.Format.OPENCODE) {
            if (!strings(found.get("command"), line) || line.isEmpty()) {
                return Optional.empty();
            }
        } else {
            JsonNode command = found.get("command");
            if (command == null || !command.isString()) {
                return Optional.empty();
            }
            line.add(command.asString());
            if (!strings(found.get("args"), line)) {
                return Optional.empty();
            }
        }
        McpEntry entry = new McpEntry(line.get(0), line.subList(1, line.size()));
        return looksLikeOurs(entry) ? Optional.of(entry) : Optional.empty();
    }

    /**
     * {@code [<java> -jar <jar> | <java> -cp <cp> dev.lomicontrol.LomiControl | <launcher>] --mcp
     * --discovery-file <abs> --discovery-key <hex> [--toolsets LIST] [--read-only]} with an absolute
     * command: what register writes now, and (without the selection) what older versions wrote.
     */
    private static boolean looksLikeOurs(McpEntry entry) {
        List<String> args = entry.args();
        int mcp = args.indexOf("--mcp");
        if (!Path.of(entry.command()).isAbsolute() || mcp < 0 || mcp + 5 > args.size()) {
            return false;
        }
        List<String> tail = args.subList(mcp, mcp + 5);
        boolean tailOk = tail.get(1).equals("--discovery-file")
                && Path.of(tail.get(2)).isAbsolute()
                && tail.get(3).equals("--discovery-key")
                && tail.get(4).matches(KEY);
        List<String> program = args.subList(0, mcp);
        boolean programOk = program.isEmpty()
                || (program.size() == 2 && program.get(0).equals("-jar"))
                || (program.size() == 3
                        && program.get(0).equals("-cp")
                        && program.get(2).equals("dev.lomicontrol.LomiControl"));
        return tailOk
                && programOk
                && McpEntry.selection(args.subList(mcp + 5, args.size())).isPresent();
    }

    private static List<String> whatChanged(McpEntry found, McpEntry wanted) {
        List<String> changed = new ArrayList<>();
        int f = found.args().size();
        int w = wanted.args().size();
        if (!found.command().equals(wanted.command())
                || !found.args().subList(0, f - 5).equals(wanted.args().subList(0, w - 5))) {
            changed.add("launcher path");
        }
        if (!found.args().get(f - 3).equals(wanted.args().get(w - 3))) {
            changed.add("discovery file");
        }
        if (!found.args().get(f - 1).equals(wanted.args().get(w - 1))) {
            changed.add("discovery key");
        }
        return changed;
    }

    private static boolean strings(@Nullable JsonNode node, List<String> into) {
        if (node == null || !node.isArray()) {
            return false;
        }
        for (JsonNode item : node) {
            if (!item.isString()) {
                return false;
            }
            into.add(item.asString());
        }
        return true;
    }

    private static Field owned(String name, JsonNode value) {
        return new Field(name, value, Rule.OWNED);
    }
}
