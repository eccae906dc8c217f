package dev.lomicontrol.console;

import java.nio.file.Path;
import java.util.ArrayList;
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

    /** {@code client list}'s judgement of one entry: its state and, unless current, what differs. */
    record Verdict(EntryState state, List<String> differences) {}

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
     * --discovery-file <abs> --discovery-key <hex>}) but another launcher, data directory or key, or
     * lacks a field an older version did not write; hand-edited when one of our fields was changed
     * into something register never writes. Without {@code wanted} (no key yet) it is just present.
     */
    static Verdict judge(McpClient.Format format, Map<String, JsonNode> found, Optional<McpEntry> wanted) {
        if (wanted.isEmpty()) {
            return new Verdict(EntryState.PRESENT, List.of());
        }
        List<String> handEdited = new ArrayList<>();
        List<String> stale = new ArrayList<>();
        boolean commandOk = true;
        for (Field field : of(format, wanted.get())) {
            JsonNode value = found.get(field.name());
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
            Optional<McpEntry> ours = shaped(format, found);
            if (ours.isPresent()) {
                stale.addAll(0, whatChanged(ours.get(), wanted.get()));
            } else {
                handEdited.add(0, format == McpClient.Format.OPENCODE ? "command" : "command/args");
            }
        }
        if (!handEdited.isEmpty()) {
            return new Verdict(EntryState.HAND_EDITED, handEdited);
        }
        return stale.isEmpty() ? new Verdict(EntryState.CURRENT, List.of()) : new Verdict(EntryState.STALE, stale);
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

    private static boolean looksLikeOurs(McpEntry entry) {
        List<String> args = entry.args();
        int n = args.size();
        if (!Path.of(entry.command()).isAbsolute() || n < 5) {
            return false;
        }
        List<String> tail = args.subList(n - 5, n);
        boolean tailOk = tail.get(0).equals("--mcp")
                && tail.get(1).equals("--discovery-file")
                && Path.of(tail.get(2)).isAbsolute()
                && tail.get(3).equals("--discovery-key")
                && tail.get(4).matches(KEY);
        List<String> program = args.subList(0, n - 5);
        boolean programOk = program.isEmpty()
                || (program.size() == 2 && program.get(0).equals("-jar"))
                || (program.size() == 3
                        && program.get(0).equals("-cp")
                        && program.get(2).equals("dev.lomicontrol.LomiControl"));
        return tailOk && programOk;
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
