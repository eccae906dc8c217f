package dev.lomicontrol.proof.fuzz;

import dev.lomicontrol.proof.fuzz.Probe.Outcome;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import tools.jackson.databind.JsonNode;

/**
 * A seeded source of hostile JSON-RPC lines for the helper, each with the answers JSON-RPC 2.0
 * allows for it ({@link Probe}). Kinds: random bytes, invalid UTF-8, deep nesting, huge numbers,
 * duplicate keys, oversized and exactly-at-limit lines, wrong types in every envelope field,
 * unknown fields, batches, notifications with and without ids, odd ids, client responses, NUL
 * bytes, bare CR line endings, BOMs, byte-level mutations of valid requests, and {@code tools/call}
 * for the real catalog with mutated arguments. Every id a probe expects back is unique in the run.
 */
final class HostileLines {

    /** A catalog entry as {@code tools/list} published it. */
    record Tool(String name, JsonNode inputSchema) {}

    static final int MAX_LINE_BYTES = 8 * 1024 * 1024;
    /** Every this many probes one is a line at or just over the helper's line limit. */
    static final int OVERSIZED_EVERY = 500;

    private static final String[] VERSIONS = {
        "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2026-07-28", "1999-01-01", ""
    };
    private static final String[] WRONG_TYPES = {
        "2.0", "2", "null", "true", "[]", "{}", "[1]", "\"1.0\"", "\"\"", "-1", "0.5"
    };
    private static final String[] ODD_IDS = {
        "null",
        "1.5",
        "1.0",
        "1e3",
        "-0.0",
        "true",
        "false",
        "{}",
        "{\"a\":1}",
        "[]",
        "[1]",
        "1e999999",
        "-1e999999",
        "0.5e1"
    };

    private final Random random;
    private final List<Tool> tools;
    private final MutatedArguments arguments;
    private final int toolCallWeight;
    private long sequence;
    private long ids;

    /** @param toolCallWeight relative weight of mutated tools/call probes (the other kinds weigh about 100 together) */
    HostileLines(Random random, List<Tool> tools, MutatedArguments arguments, int toolCallWeight) {
        this.random = random;
        this.tools = List.copyOf(tools);
        this.arguments = arguments;
        this.toolCallWeight = toolCallWeight;
    }

    /** The next probe. */
    Probe next() {
        sequence++;
        if (sequence % OVERSIZED_EVERY == 0) {
            return oversized();
        }
        int roll = random.nextInt(100 + toolCallWeight);
        if (roll >= 100) {
            return toolCall();
        }
        if (roll < 12) {
            return validRequest();
        }
        if (roll < 24) {
            return byteMutation();
        }
        if (roll < 32) {
            return randomBytes();
        }
        if (roll < 40) {
            return wrongTypes();
        }
        if (roll < 46) {
            return oddId();
        }
        if (roll < 52) {
            return unknownFields();
        }
        if (roll < 60) {
            return notification();
        }
        if (roll < 63) {
            return clientResponse();
        }
        if (roll < 67) {
            return batch();
        }
        if (roll < 72) {
            return duplicateKeys();
        }
        if (roll < 78) {
            return hugeNumbers();
        }
        if (roll < 83) {
            return invalidUtf8();
        }
        if (roll < 86) {
            return deepNesting();
        }
        if (roll < 91) {
            return nulBytes();
        }
        if (roll < 96) {
            return bareCarriageReturns();
        }
        return byteOrderMarks();
    }

    /** A request the helper must answer with {@code id}, e.g. for a checkpoint. */
    static String request(String idJson, String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + idJson + ",\"method\":" + JsonText.quote(method)
                + (params == null ? "" : ",\"params\":" + params) + "}";
    }

    // ---- ids

    /** A fresh id: mostly "fz-N" strings, sometimes integers of any size or strings with odd characters. */
    private Id freshId() {
        long n = ++ids;
        switch (random.nextInt(10)) {
            case 0:
                return Id.integer(BigInteger.valueOf(1_000_000L + n));
            case 1:
                return Id.integer(BigInteger.valueOf(-1_000_000L - n));
            case 2:
                return Id.integer(BigInteger.TEN.pow(399).add(BigInteger.valueOf(n)));
            case 3: {
                String[] odd = {"\uD800", "\u0000", "\u2028", "\uD83D\uDE00", "\uFEFF", "\"", "\\", "\u007F", "\uDFFF"};
                return Id.string(odd[random.nextInt(odd.length)] + "fz-" + n);
            }
            default:
                return Id.string("fz-" + n);
        }
    }

    /** A fresh id for lines that will be mutated: always a plain string, so a mangled id is recognisable. */
    private Id mutationId() {
        return Id.string("mz-" + (++ids));
    }

    private record Id(String json, IdKey key) {
        static Id string(String value) {
            return new Id(JsonText.quote(value), IdKey.ofString(value));
        }

        static Id integer(BigInteger value) {
            return new Id(value.toString(), IdKey.ofInteger(value));
        }
    }

    // ---- kinds

    private String validMethodAndParams(String[] method) {
        switch (random.nextInt(9)) {
            case 0:
                method[0] = "ping";
                return null;
            case 1:
                method[0] = "tools/list";
                return random.nextBoolean()
                        ? "{}"
                        : "{\"cursor\":" + JsonText.quote(JsonText.randomString(random)) + "}";
            case 2:
                method[0] = "initialize";
                return "{\"protocolVersion\":"
                        + (random.nextInt(5) == 0 ? JsonText.randomValue(random, 1) : JsonText.quote(pick(VERSIONS)))
                        + ",\"capabilities\":" + JsonText.randomObject(random, 1) + ",\"clientInfo\":{\"name\":"
                        + JsonText.quote(JsonText.randomString(random))
                        + ",\"version\":\"1\"}}";
            case 3:
                method[0] = "server/discover";
                return "{}";
            case 4:
                method[0] = "ping";
                return "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":"
                        + (random.nextBoolean() ? JsonText.quote(pick(VERSIONS)) : JsonText.randomValue(random, 1))
                        + "}}";
            case 5:
                method[0] = pick(new String[] {
                    "resources/list", "prompts/get", "logging/setLevel", "completion/complete", "", "tools/call/x"
                });
                return "{}";
            case 6:
                method[0] = JsonText.randomString(random);
                return random.nextBoolean() ? null : JsonText.randomObject(random, 2);
            case 7:
                method[0] = "tools/call";
                return "{\"name\":\"lomi_status\",\"arguments\":{}}";
            default:
                method[0] = "tools/list";
                return "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientInfo\":{\"name\":\"fz\","
                        + "\"version\":\"1\"}}}";
        }
    }

    private Probe validRequest() {
        Id id = freshId();
        String[] method = new String[1];
        String params = validMethodAndParams(method);
        return Probe.answer("valid-request", request(id.json(), method[0], params), id.key(), method[0]);
    }

    private Probe toolCall() {
        Id id = freshId();
        String params;
        if (random.nextInt(25) == 0) {
            params = "{\"name\":"
                    + JsonText.quote(random.nextBoolean() ? "lomi_no_such_tool" : JsonText.randomString(random))
                    + ",\"arguments\":{}}";
        } else {
            Tool tool = tools.get(random.nextInt(tools.size()));
            params = "{\"name\":" + JsonText.quote(tool.name()) + ",\"arguments\":"
                    + KnownBugs.steerToolArguments(arguments.forSchema(tool.inputSchema())) + "}";
        }
        return Probe.answer("tools-call", request(id.json(), "tools/call", params), id.key(), "tools/call");
    }

    private Probe byteMutation() {
        Id id = mutationId();
        String[] method = new String[1];
        String params = random.nextBoolean() ? validMethodAndParams(method) : toolCallParams(method);
        byte[] line = request(id.json(), method[0], params).getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream mutated = new ByteArrayOutputStream();
        mutated.writeBytes(line);
        for (int i = 1 + random.nextInt(4); i > 0; i--) {
            byte[] current = mutated.toByteArray();
            mutated.reset();
            int at = current.length == 0 ? 0 : random.nextInt(current.length);
            switch (random.nextInt(4)) {
                case 0:
                    current[at] = noNewline((byte) random.nextInt(256));
                    mutated.writeBytes(current);
                    break;
                case 1:
                    mutated.write(current, 0, at);
                    mutated.write(noNewline((byte) random.nextInt(256)));
                    mutated.write(current, at, current.length - at);
                    break;
                case 2:
                    mutated.write(current, 0, at);
                    mutated.write(current, Math.min(current.length, at + 1), Math.max(0, current.length - at - 1));
                    break;
                default:
                    mutated.writeBytes(current);
                    mutated.write(current, at, Math.min(current.length - at, 1 + random.nextInt(16)));
            }
        }
        mutated.write('\n');
        return new Probe(
                "byte-mutation",
                KnownBugs.steerMutatedLine(mutated.toByteArray()),
                EnumSet.of(Outcome.FOREIGN),
                id.key(),
                method[0],
                List.of());
    }

    private String toolCallParams(String[] method) {
        method[0] = "tools/call";
        Tool tool = tools.get(random.nextInt(tools.size()));
        return "{\"name\":" + JsonText.quote(tool.name()) + ",\"arguments\":"
                + KnownBugs.steerToolArguments(arguments.forSchema(tool.inputSchema())) + "}";
    }

    private Probe randomBytes() {
        byte[] bytes = new byte[1 + random.nextInt(random.nextInt(10) == 0 ? 4096 : 300)];
        random.nextBytes(bytes);
        boolean blank = true;
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = noNewline(bytes[i]);
            blank &= bytes[i] == ' ' || bytes[i] == '\t' || bytes[i] == '\r';
        }
        byte[] line = java.util.Arrays.copyOf(bytes, bytes.length + 1);
        line[bytes.length] = '\n';
        return blank ? Probe.none("random-bytes", line, List.of()) : Probe.nullError("random-bytes", line, List.of());
    }

    private Probe wrongTypes() {
        Id id = freshId();
        String wrong = pick(WRONG_TYPES);
        String line;
        switch (random.nextInt(8)) {
            case 0:
                line = "{\"jsonrpc\":" + wrong + ",\"id\":" + id.json() + ",\"method\":\"ping\"}";
                break;
            case 1:
                line = "{\"id\":" + id.json() + ",\"method\":\"ping\"}";
                break;
            case 2:
                line = "{\"jsonrpc\":\"2.0\",\"id\":" + id.json() + ",\"method\":" + wrong + "}";
                break;
            case 3:
                line = "{\"jsonrpc\":\"2.0\",\"id\":" + id.json() + "}";
                break;
            case 4:
                line = "{\"jsonrpc\":\"2.0\",\"id\":" + id.json() + ",\"method\":\"tools/list\",\"params\":"
                        + pick(new String[] {"\"x\"", "1", "true", "null", "[]", "[1]", "0.5"}) + "}";
                break;
            case 5:
                line = request(id.json(), "tools/call", "{\"name\":" + pick(WRONG_TYPES) + ",\"arguments\":{}}");
                break;
            case 6:
                line = request(
                        id.json(),
                        "tools/call",
                        "{\"name\":\"lomi_status\",\"arguments\":"
                                + pick(new String[] {"[]", "\"{}\"", "null", "1", "true"}) + "}");
                break;
            default:
                line = "{\"jsonrpc\":\"2.0\",\"id\":" + id.json() + ",\"method\":\"ping\",\""
                        + (random.nextBoolean() ? "result" : "error") + "\":" + JsonText.randomValue(random, 1) + "}";
        }
        return Probe.answer("wrong-types", line, id.key(), "");
    }

    private Probe oddId() {
        String line = "{\"jsonrpc\":\"2.0\",\"id\":" + pick(ODD_IDS) + ",\"method\":"
                + JsonText.quote(random.nextBoolean() ? "ping" : "tools/list") + "}";
        return Probe.nullError("odd-id", Probe.Lines.bytes(line), List.of());
    }

    private Probe unknownFields() {
        Id id = freshId();
        String extra = JsonText.quote("x-" + JsonText.randomString(random)) + ":" + JsonText.randomValue(random, 2);
        String line;
        switch (random.nextInt(3)) {
            case 0:
                line = "{\"jsonrpc\":\"2.0\",\"id\":" + id.json() + ",\"method\":\"ping\"," + extra + "}";
                break;
            case 1:
                line = request(id.json(), "tools/list", "{" + extra + "}");
                break;
            default:
                Tool tool = tools.get(random.nextInt(tools.size()));
                line = request(
                        id.json(),
                        "tools/call",
                        "{\"name\":" + JsonText.quote(tool.name()) + ",\"arguments\":"
                                + KnownBugs.steerToolArguments("{" + extra + "}") + ","
                                + extra.replaceFirst("^\"x-", "\"y-") + "}");
        }
        return Probe.answer("unknown-fields", line, id.key(), line.contains("tools/call") ? "tools/call" : "");
    }

    private Probe notification() {
        int kind = random.nextInt(6);
        if (kind == 0) {
            Id id = freshId();
            return Probe.answer(
                    "notification-with-id", request(id.json(), "notifications/initialized", null), id.key(), "");
        }
        if (kind == 1) {
            Id id = freshId();
            return Probe.answer(
                    "notification-with-id",
                    request(id.json(), "notifications/cancelled", "{\"requestId\":" + id.json() + "}"),
                    id.key(),
                    "");
        }
        if (kind == 2) {
            String line = "{\"jsonrpc\":" + pick(new String[] {"\"1.0\"", "2.0", "null"})
                    + ",\"method\":\"notifications/initialized\"}";
            return Probe.nullError("notification-bad-envelope", Probe.Lines.bytes(line), List.of());
        }
        String method = pick(new String[] {
            "notifications/initialized", "notifications/cancelled", "notifications/progress", "no/such", ""
        });
        String params = pick(new String[] {
            "", ",\"params\":{}", ",\"params\":[1]", ",\"params\":\"x\"", ",\"params\":{\"requestId\":\"fz-1\"}"
        });
        return Probe.none(
                "notification",
                Probe.Lines.bytes("{\"jsonrpc\":\"2.0\",\"method\":" + JsonText.quote(method) + params + "}"),
                List.of());
    }

    private Probe clientResponse() {
        Id id = freshId();
        String body = random.nextBoolean()
                ? "\"result\":" + JsonText.randomObject(random, 1)
                : "\"error\":{\"code\":-32000,\"message\":\"x\"}";
        return Probe.none(
                "client-response",
                Probe.Lines.bytes("{\"jsonrpc\":\"2.0\",\"id\":" + id.json() + "," + body + "}"),
                List.of(id.key()));
    }

    private Probe batch() {
        if (random.nextInt(3) == 0) {
            return Probe.nullError(
                    "batch",
                    Probe.Lines.bytes(pick(new String[] {"[]", "[[]]", "[1,2]", "[{}]", "[null]"})),
                    List.of());
        }
        Id first = freshId();
        Id second = freshId();
        String line =
                "[" + request(first.json(), "ping", null) + "," + request(second.json(), "tools/list", null) + "]";
        return Probe.nullError("batch", Probe.Lines.bytes(line), List.of(first.key(), second.key()));
    }

    private Probe duplicateKeys() {
        Id id = freshId();
        Id other = freshId();
        String line;
        switch (random.nextInt(5)) {
            case 0:
                line = "{\"jsonrpc\":\"2.0\",\"id\":" + id.json() + ",\"id\":" + other.json() + ",\"method\":\"ping\"}";
                break;
            case 1:
                line = "{\"jsonrpc\":\"2.0\",\"id\":" + id.json() + ",\"method\":\"ping\",\"method\":\"tools/list\"}";
                break;
            case 2:
                line = request(id.json(), "ping", "{\"a\":1,\"a\":2}");
                break;
            case 3:
                line = request(
                        id.json(),
                        "tools/call",
                        "{\"name\":\"lomi_workspace_list\",\"arguments\":{\"limit\":1,\"limit\":2}}");
                break;
            default:
                line = "{\"jsonrpc\":\"2.0\",\"id\":" + id.json() + ",\"\\u0069d\":" + other.json()
                        + ",\"method\":\"ping\"}";
        }
        return Probe.nullError("duplicate-keys", Probe.Lines.bytes(line), List.of(id.key(), other.key()));
    }

    private Probe hugeNumbers() {
        Id id = freshId();
        String number =
                random.nextBoolean() ? JsonText.randomNumber(random) : "1" + "0".repeat(1000 + random.nextInt(2000));
        String line = random.nextBoolean()
                ? request(id.json(), "ping", "{\"n\":" + number + "}")
                : request(
                        id.json(),
                        "tools/call",
                        "{\"name\":\"lomi_workspace_list\",\"arguments\":"
                                + KnownBugs.steerToolArguments("{\"limit\":" + number + "}") + "}");
        // valid JSON; a parser may still refuse a number over its length limit as a parse error
        return new Probe(
                "huge-numbers",
                Probe.Lines.bytes(line),
                EnumSet.of(Outcome.ANSWER, Outcome.NULL_ERROR),
                id.key(),
                line.contains("tools/call") ? "tools/call" : "ping",
                List.of());
    }

    private Probe invalidUtf8() {
        Id id = freshId();
        byte[][] broken = {
            {(byte) 0xC3, 0x28},
            {(byte) 0xFF},
            {(byte) 0xC0, (byte) 0xAF},
            {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
            {(byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80},
            {(byte) 0xE2, (byte) 0x82},
            {(byte) 0x80},
            {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}
        };
        byte[] bad = broken[random.nextInt(broken.length)];
        String before = "{\"jsonrpc\":\"2.0\",\"id\":" + id.json() + ",\"method\":\"ping\",\"params\":{\"s\":\"a";
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        line.writeBytes(before.getBytes(StandardCharsets.UTF_8));
        line.writeBytes(bad);
        line.writeBytes("b\"}}\n".getBytes(StandardCharsets.UTF_8));
        return Probe.nullError("invalid-utf8", line.toByteArray(), List.of(id.key()));
    }

    private Probe deepNesting() {
        Id id = freshId();
        int depth = 10_000 + random.nextInt(50_000);
        String line;
        switch (random.nextInt(4)) {
            case 0:
                line = "[".repeat(depth) + "]".repeat(depth);
                break;
            case 1:
                line = "{\"a\":".repeat(depth) + "1" + "}".repeat(depth);
                break;
            case 2:
                line = request(id.json(), "ping", "{\"deep\":" + "[".repeat(depth) + "]".repeat(depth) + "}");
                break;
            default:
                line = "[".repeat(depth);
        }
        return Probe.nullError("deep-nesting", Probe.Lines.bytes(line), List.of(id.key()));
    }

    private Probe nulBytes() {
        Id id = freshId();
        switch (random.nextInt(4)) {
            case 0:
                return Probe.nullError(
                        "nul-bytes",
                        Probe.Lines.bytes(request(id.json(), "ping", "{\"s\":\"a\u0000b\"}")),
                        List.of(id.key()));
            case 1:
                return Probe.nullError(
                        "nul-bytes",
                        Probe.Lines.bytes("{\"jsonrpc\":\"2.0\",\u0000\"id\":" + id.json() + ",\"method\":\"ping\"}"),
                        List.of(id.key()));
            case 2:
                return Probe.nullError("nul-bytes", new byte[] {0, 0, 0, '\n'}, List.of());
            default:
                return Probe.answer(
                        "nul-escaped",
                        request(id.json(), "ping\u0000", "{\"s\":\"a\\u0000b\"}")
                                .replace("\u0000", "\\u0000"),
                        id.key(),
                        "");
        }
    }

    private Probe bareCarriageReturns() {
        Id first = freshId();
        Id second = freshId();
        String a = request(first.json(), "ping", null);
        String b = request(second.json(), "tools/list", null);
        switch (random.nextInt(4)) {
            case 0:
                return Probe.nullError(
                        "cr-only", Probe.Lines.bytes(a + "\r" + b + "\r"), List.of(first.key(), second.key()));
            case 1:
                return Probe.answer("crlf", a + "\r", first.key(), "ping");
            case 2:
                return Probe.answer("cr-padded", "\r" + a + "\r\r", first.key(), "ping");
            default:
                return Probe.none("cr-blank", Probe.Lines.bytes("\r".repeat(1 + random.nextInt(5))), List.of());
        }
    }

    private Probe byteOrderMarks() {
        Id id = freshId();
        String line = request(id.json(), "ping", null);
        switch (random.nextInt(3)) {
            case 0:
                // a leading BOM: a parser may skip it or refuse the line; either way, never a wrong id
                return new Probe(
                        "bom-leading",
                        Probe.Lines.bytes("\uFEFF" + line),
                        EnumSet.of(Outcome.ANSWER, Outcome.NULL_ERROR),
                        id.key(),
                        "ping",
                        List.of());
            case 1:
                return Probe.nullError(
                        "bom-inside",
                        Probe.Lines.bytes(line.replace(",\"method\"", "\uFEFF,\"method\"")),
                        List.of(id.key()));
            default:
                return Probe.answer("bom-escaped", request(id.json(), "ping", "{\"s\":\"\\ufeff\"}"), id.key(), "ping");
        }
    }

    /** A line at the limit (answered), at the limit plus a CR (answered: the CR is a line ending) or over it (payload too large). */
    private Probe oversized() {
        Id id = freshId();
        int kind = (int) ((sequence / OVERSIZED_EVERY) % 3);
        String head = "{\"jsonrpc\":\"2.0\",\"id\":" + id.json() + ",\"method\":\"ping\",\"params\":{\"pad\":\"";
        String tail = "\"}}";
        int target = kind == 2 ? MAX_LINE_BYTES + 1 + random.nextInt(4096) : MAX_LINE_BYTES;
        byte[] headBytes = head.getBytes(StandardCharsets.UTF_8);
        byte[] line = new byte[target + (kind == 1 ? 2 : 1)];
        java.util.Arrays.fill(line, (byte) 'p');
        System.arraycopy(headBytes, 0, line, 0, headBytes.length);
        System.arraycopy(tail.getBytes(StandardCharsets.UTF_8), 0, line, target - tail.length(), tail.length());
        if (kind == 1) {
            line[target] = '\r';
        }
        line[line.length - 1] = '\n';
        return kind == 2
                ? Probe.nullError("oversized", line, List.of(id.key()))
                : new Probe(
                        kind == 1 ? "at-limit-crlf" : "at-limit",
                        line,
                        EnumSet.of(Outcome.ANSWER),
                        id.key(),
                        "ping",
                        List.of());
    }

    private static byte noNewline(byte b) {
        return b == '\n' ? (byte) ' ' : b;
    }

    private String pick(String[] choices) {
        return choices[random.nextInt(choices.length)];
    }
}
