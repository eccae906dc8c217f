package dev.lomicontrol.proof.fuzz;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.proof.fuzz.Probe.Outcome;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Checks every line the helper writes to stdout against what was sent. A line must be strict UTF-8
 * and exactly one JSON object that is a JSON-RPC 2.0 response (jsonrpc, id, and exactly one of
 * result/error; an error has an integer code and a string message; {@code id:null} only on
 * errors). Accounting: every id is answered at most as often as requests carried it and at least
 * as often as well-formed requests carried it; ids inside batches, client responses and refused
 * lines are never answered; an id no request carried is accepted only from a mutated line whose
 * bytes contain it; null-id errors stay between the lines that must and the lines that may
 * produce one. {@code tools/call} results must be CallToolResults with a Control API envelope.
 */
final class ReplyAudit {

    private static final JsonMapper STRICT = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    private static final Set<String> ERROR_CODES =
            Arrays.stream(ErrorCode.values()).map(Enum::name).collect(Collectors.toSet());
    private static final Set<String> RESPONSE_MEMBERS = Set.of("jsonrpc", "id", "result", "error");
    private static final int FOREIGN_WINDOW = 4096;
    private static final int MAX_FAILURES_KEPT = 50;

    /** min, max and seen answers per id. */
    private final Map<IdKey, long[]> bounds = new HashMap<>();

    private final Map<IdKey, String> methods = new HashMap<>();
    private final Map<IdKey, String> described = new HashMap<>();
    private final Map<IdKey, JsonNode> watched = new HashMap<>();
    /** Ids with fewer answers than their minimum, kept up to date so that waiting for them stays cheap. */
    private final java.util.Set<IdKey> pending = new java.util.HashSet<>();

    private final Deque<String> foreignLines = new ArrayDeque<>();
    private final List<String> failures = new ArrayList<>();
    private long failureCount;
    private long nullMin;
    private long nullMax;
    private long nullSeen;
    private long foreignBudget;
    private long foreignUsed;
    private long replies;
    private long probes;

    /** Registers a probe before it is sent. */
    void expect(Probe probe) {
        probes++;
        Set<Outcome> outcomes = probe.outcomes();
        for (IdKey forbidden : probe.forbidden()) {
            bounds.computeIfAbsent(forbidden, key -> new long[3]);
        }
        if (outcomes.contains(Outcome.FOREIGN)) {
            nullMax++;
            foreignBudget++;
            foreignLines.addLast(new String(probe.bytes(), StandardCharsets.ISO_8859_1));
            if (foreignLines.size() > FOREIGN_WINDOW) {
                foreignLines.removeFirst();
            }
            return;
        }
        if (outcomes.contains(Outcome.NULL_ERROR)) {
            nullMax++;
            nullMin += outcomes.size() == 1 ? 1 : 0;
        }
        if (outcomes.contains(Outcome.ANSWER)) {
            long[] bound = bounds.computeIfAbsent(probe.id(), key -> new long[3]);
            bound[0] += outcomes.size() == 1 ? 1 : 0;
            bound[1]++;
            if (bound[2] < bound[0]) {
                pending.add(probe.id());
            }
            methods.put(probe.id(), probe.method());
            described.put(probe.id(), probe.describe(240));
        }
    }

    /** Keeps the reply to {@code id} for the caller ({@link #watchedReply}). */
    void watch(IdKey id) {
        watched.put(id, null);
    }

    JsonNode watchedReply(IdKey id) {
        return watched.get(id);
    }

    /** Whether {@code id} has been answered at least once. */
    boolean answered(IdKey id) {
        long[] bound = bounds.get(id);
        return bound != null && bound[2] > 0;
    }

    /** Checks one stdout line (without its newline). */
    void reply(byte[] line) {
        replies++;
        String text;
        try {
            text = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(line))
                    .toString();
        } catch (CharacterCodingException e) {
            fail("a stdout line is not valid UTF-8: " + printable(line));
            return;
        }
        JsonNode node;
        try {
            node = STRICT.readTree(text);
        } catch (JacksonException e) {
            fail("a stdout line is not one JSON value (" + e.getOriginalMessage() + "): " + printable(line));
            return;
        }
        String shape = shapeProblem(node);
        if (shape != null) {
            fail(shape + ": " + printable(line));
            return;
        }
        JsonNode id = node.get("id");
        if (id.isNull()) {
            nullSeen++;
            return;
        }
        account(IdKey.of(id), node, line);
    }

    /** After a checkpoint was answered: every line before it has been answered, so the null-id errors must be in bounds. */
    void checkpoint(String where) {
        if (nullSeen < nullMin || nullSeen > nullMax) {
            fail(where + ": " + nullSeen + " null-id errors, expected " + nullMin + ".." + nullMax);
            // re-base so that one miscount is reported once, not at every later checkpoint
            nullMin = Math.min(nullMin, nullSeen);
            nullMax = Math.max(nullMax, nullSeen);
        }
    }

    /** Ids that well-formed requests carried but that have not been answered yet. */
    List<IdKey> outstanding() {
        return List.copyOf(pending);
    }

    boolean nothingOutstanding() {
        return pending.isEmpty();
    }

    /** Turns every still-unanswered well-formed request into a failure. */
    void finish(String where) {
        for (IdKey id : outstanding()) {
            fail(where + ": no answer to " + described.getOrDefault(id, id.value()));
            pending.remove(id); // reported once; a late answer is still checked against the maximum
        }
    }

    void fail(String failure) {
        failureCount++;
        if (failures.size() < MAX_FAILURES_KEPT) {
            failures.add(failure);
        }
    }

    List<String> failures() {
        return failures;
    }

    long failureCount() {
        return failureCount;
    }

    long replies() {
        return replies;
    }

    long probes() {
        return probes;
    }

    long nullErrors() {
        return nullSeen;
    }

    private void account(IdKey key, JsonNode node, byte[] line) {
        long[] bound = bounds.get(key);
        if (bound == null) {
            String needle = new String(key.text().getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
            if (foreignUsed < foreignBudget && foreignLines.stream().anyMatch(sent -> sent.contains(needle))) {
                foreignUsed++;
            } else {
                fail("a reply carries an id no request carried: " + printable(line));
            }
            return;
        }
        bound[2]++;
        if (bound[2] >= bound[0]) {
            pending.remove(key);
        }
        if (bound[2] > bound[1]) {
            fail((bound[1] == 0
                            ? "a reply to a line that must not be answered: "
                            : "an id was answered more often than requests carried it: ")
                    + printable(line)
                    + (described.containsKey(key) ? " — sent: " + described.get(key) : ""));
        }
        if (watched.containsKey(key)) {
            watched.put(key, node);
        }
        if ("tools/call".equals(methods.get(key)) && node.has("result")) {
            String problem = toolResultProblem(node.get("result"));
            if (problem != null) {
                fail("tools/call result " + problem + ": " + printable(line) + " — sent: " + described.get(key));
            }
        }
    }

    private static String shapeProblem(JsonNode node) {
        if (!node.isObject()) {
            return "a stdout line is not a JSON object";
        }
        for (Map.Entry<String, JsonNode> member : node.properties()) {
            if (!RESPONSE_MEMBERS.contains(member.getKey())) {
                return "a response has the member '" + member.getKey() + "'";
            }
        }
        if (!"2.0".equals(node.path("jsonrpc").asString(null))
                || !node.path("jsonrpc").isString()) {
            return "a response without jsonrpc \"2.0\"";
        }
        JsonNode id = node.get("id");
        if (id == null || !(id.isNull() || id.isString() || id.isIntegralNumber())) {
            return "a response without a usable id";
        }
        if (node.has("result") == node.has("error")) {
            return "a response needs exactly one of result and error";
        }
        if (node.has("error")) {
            JsonNode error = node.get("error");
            if (!error.isObject()
                    || !error.path("code").isInt()
                    || !error.path("message").isString()) {
                return "an error without an integer code and a string message";
            }
            return null;
        }
        if (id.isNull()) {
            return "a result with id null";
        }
        return node.get("result").isObject() ? null : "a result that is not an object";
    }

    private static String toolResultProblem(JsonNode result) {
        if (!result.path("content").isArray()) {
            return "has no content array";
        }
        for (JsonNode block : result.get("content").values()) {
            if (!block.path("type").isString()) {
                return "has a content block without a type";
            }
        }
        if (result.has("isError") && !result.get("isError").isBoolean()) {
            return "has a non-boolean isError";
        }
        JsonNode envelope = result.get("structuredContent");
        if (envelope == null) {
            return null;
        }
        boolean isError = result.path("isError").asBoolean(false);
        if (!"1.0".equals(envelope.path("controlApiVersion").asString(null))) {
            return "has structuredContent without controlApiVersion 1.0";
        }
        String status = envelope.path("status").asString("");
        if (status.equals("ok")) {
            return envelope.path("data").isObject() && !isError ? null : "is ok without data or with isError";
        }
        if (status.equals("error")) {
            return ERROR_CODES.contains(envelope.path("code").asString(""))
                            && envelope.path("message").isString()
                            && isError
                    ? null
                    : "is an error without a known code, a message or isError";
        }
        return "has status '" + status + "'";
    }

    static String printable(byte[] line) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < line.length && text.length() < 400; i++) {
            int b = line[i] & 0xff;
            text.append(b >= 0x20 && b < 0x7f ? String.valueOf((char) b) : String.format("\\x%02x", b));
        }
        return line.length > 400 ? text + "… (" + line.length + " bytes)" : text.toString();
    }
}
