package dev.lomicontrol.proof.fuzz;

import java.math.BigInteger;
import tools.jackson.databind.JsonNode;

/**
 * A JSON-RPC id compared by value, never by its spelling: a string by its characters (lone
 * surrogates included), an integer by its exact value however many digits it has.
 */
record IdKey(String value) {

    static IdKey ofString(String id) {
        return new IdKey("s:" + id);
    }

    static IdKey ofInteger(BigInteger id) {
        return new IdKey("n:" + id);
    }

    /** The key of a reply's id, or null when the id is JSON null (or of a type no request may use). */
    static IdKey of(JsonNode id) {
        if (id == null || id.isNull()) {
            return null;
        }
        if (id.isString()) {
            return ofString(id.stringValue());
        }
        return id.isIntegralNumber() ? ofInteger(id.bigIntegerValue()) : null;
    }

    /** The id's text as it would appear unescaped in a line: the string itself or the decimal digits. */
    String text() {
        return value.substring(2);
    }
}
