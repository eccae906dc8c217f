package dev.lomicontrol.ledger;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Canonical JSON for fingerprints: object keys sorted recursively (by UTF-16 code units), no
 * whitespace, numbers in their shortest plain decimal form (so {@code 1}, {@code 1.0} and
 * {@code 1e0} are equal), nesting depth at most 32, no NUL in keys or strings, at most 64 KiB.
 */
public final class CanonicalJson {

    public static final int MAX_DEPTH = 32;
    public static final int MAX_BYTES = 64 * 1024;

    private CanonicalJson() {}

    /** The canonical UTF-8 bytes of {@code node}; INVALID_ARGUMENT or PAYLOAD_TOO_LARGE otherwise. */
    public static byte[] bytes(JsonNode node) {
        StringBuilder out = new StringBuilder();
        write(node, out, 0);
        byte[] bytes = out.toString().getBytes(StandardCharsets.UTF_8);
        if (bytes.length > MAX_BYTES) {
            throw new LomiException(ErrorCode.PAYLOAD_TOO_LARGE, "canonical input exceeds 64 KiB");
        }
        return bytes;
    }

    public static String string(JsonNode node) {
        return new String(bytes(node), StandardCharsets.UTF_8);
    }

    /** SHA-256 of the canonical bytes. */
    public static byte[] sha256(JsonNode node) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes(node));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void write(JsonNode node, StringBuilder out, int depth) {
        if (depth > MAX_DEPTH) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "input nesting exceeds depth " + MAX_DEPTH);
        }
        if (out.length() > MAX_BYTES) {
            throw new LomiException(ErrorCode.PAYLOAD_TOO_LARGE, "canonical input exceeds 64 KiB");
        }
        if (node == null || node.isNull() || node.isMissingNode()) {
            out.append("null");
        } else if (node.isObject()) {
            writeObject(node, out, depth);
        } else if (node.isArray()) {
            out.append('[');
            int i = 0;
            for (JsonNode element : node.values()) {
                if (i++ > 0) {
                    out.append(',');
                }
                write(element, out, depth + 1);
            }
            out.append(']');
        } else if (node.isString()) {
            writeString(node.stringValue(), out);
        } else if (node.isNumber()) {
            out.append(number(node));
        } else if (node.isBoolean()) {
            out.append(node.booleanValue());
        } else {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "unsupported JSON value " + node.getNodeType());
        }
    }

    private static void writeObject(JsonNode node, StringBuilder out, int depth) {
        List<Map.Entry<String, JsonNode>> entries = new ArrayList<>(node.properties());
        entries.sort(Map.Entry.comparingByKey());
        out.append('{');
        for (int i = 0; i < entries.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            writeString(entries.get(i).getKey(), out);
            out.append(':');
            write(entries.get(i).getValue(), out, depth + 1);
        }
        out.append('}');
    }

    private static String number(JsonNode node) {
        if (node.isIntegralNumber()) {
            return node.bigIntegerValue().toString();
        }
        BigDecimal value = node.decimalValue().stripTrailingZeros();
        if (Math.abs((long) value.scale()) > 1024) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "number out of range");
        }
        return value.signum() == 0 ? "0" : value.toPlainString();
    }

    private static void writeString(String value, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == 0) {
                throw new LomiException(ErrorCode.INVALID_ARGUMENT, "NUL is not allowed in input strings or keys");
            } else if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        out.append('"');
    }
}
