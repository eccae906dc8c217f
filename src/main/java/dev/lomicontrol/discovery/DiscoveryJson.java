package dev.lomicontrol.discovery;

import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.json.StreamingJson;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The wire shape of discovery.json: the outer document {version, payload, signature} and the
 * signed payload {instanceId, endpoint, brokerSha256, ipcVersion}. Writing uses that fixed key
 * order; reading accepts exactly those fields with those JSON types (no unknown, missing or
 * duplicate fields, no trailing content).
 */
final class DiscoveryJson {

    static final int FORMAT_VERSION = 1;
    private static final List<String> ENVELOPE_FIELDS = List.of("version", "payload", "signature");
    private static final List<String> PAYLOAD_FIELDS = List.of("instanceId", "endpoint", "brokerSha256", "ipcVersion");
    /** Read and written without a mapper (the helper verifies this file at start-up; ADR 0015). */
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private DiscoveryJson() {}

    /** The outer document as read: the payload string exactly as stored and the signature text. */
    record Envelope(int version, String payload, String signature) {}

    /** The canonical payload string: the record's fields in the fixed order. */
    static String payload(DiscoveryRecord record) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("instanceId", record.instanceId());
        node.put("endpoint", record.endpoint());
        node.put("brokerSha256", record.brokerSha256());
        node.put("ipcVersion", record.ipcVersion());
        return new String(StreamingJson.bytes(FACTORY, node), StandardCharsets.UTF_8);
    }

    /** The stored document, UTF-8: {version:1, payload, signature}. */
    static byte[] document(String payload, String signatureHex) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("version", FORMAT_VERSION);
        node.put("payload", payload);
        node.put("signature", signatureHex);
        return StreamingJson.bytes(FACTORY, node);
    }

    static Envelope envelope(byte[] document) throws DiscoveryException {
        JsonNode node = exactObject(parse(document, "discovery file"), ENVELOPE_FIELDS, "discovery file");
        return new Envelope(
                intField(node, "version", "discovery file"),
                stringField(node, "payload", "discovery file"),
                stringField(node, "signature", "discovery file"));
    }

    /** The validated record named by a payload string (call only after its signature verified). */
    static DiscoveryRecord record(String payload) throws DiscoveryException {
        JsonNode node =
                exactObject(parse(payload.getBytes(StandardCharsets.UTF_8), "payload"), PAYLOAD_FIELDS, "payload");
        try {
            return new DiscoveryRecord(
                    stringField(node, "instanceId", "payload"),
                    stringField(node, "endpoint", "payload"),
                    stringField(node, "brokerSha256", "payload"),
                    intField(node, "ipcVersion", "payload"));
        } catch (LomiException e) {
            throw new DiscoveryException("payload: " + e.getMessage(), e);
        }
    }

    private static JsonNode parse(byte[] json, String what) throws DiscoveryException {
        try {
            return StreamingJson.parse(FACTORY, json);
        } catch (JacksonException e) {
            throw new DiscoveryException(what + " is not valid JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static JsonNode exactObject(JsonNode node, List<String> fields, String what) throws DiscoveryException {
        if (node == null || !node.isObject()) {
            throw new DiscoveryException(what + " must be a JSON object");
        }
        for (String name : node.propertyNames()) {
            if (!fields.contains(name)) {
                throw new DiscoveryException(
                        what + " has an unknown field \"" + name + "\"; expected exactly " + fields);
            }
        }
        if (!Set.copyOf(node.propertyNames()).containsAll(fields)) {
            throw new DiscoveryException(what + " lacks a field; expected exactly " + fields);
        }
        return node;
    }

    private static String stringField(JsonNode node, String name, String what) throws DiscoveryException {
        JsonNode value = node.get(name);
        if (!value.isString()) {
            throw new DiscoveryException(what + " field \"" + name + "\" must be a string");
        }
        return value.stringValue();
    }

    private static int intField(JsonNode node, String name, String what) throws DiscoveryException {
        JsonNode value = node.get(name);
        if (!value.isInt()) {
            throw new DiscoveryException(what + " field \"" + name + "\" must be an integer");
        }
        return value.intValue();
    }
}
