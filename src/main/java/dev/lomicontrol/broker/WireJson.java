package dev.lomicontrol.broker;

import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import tools.jackson.databind.node.ObjectNode;

/** Fields the published schemas require even when empty: written as JSON {@code null}, never left out. */
final class WireJson {

    private WireJson() {}

    static void put(ObjectNode node, String name, Optional<String> value) {
        if (value.isPresent()) {
            node.put(name, value.get());
        } else {
            node.putNull(name);
        }
    }

    /** A text where "" means absent (as the git module reports a missing HEAD or branch). */
    static void putUnlessEmpty(ObjectNode node, String name, String value) {
        put(node, name, value.isEmpty() ? Optional.empty() : Optional.of(value));
    }

    static void put(ObjectNode node, String name, OptionalInt value) {
        if (value.isPresent()) {
            node.put(name, value.getAsInt());
        } else {
            node.putNull(name);
        }
    }

    /** A long as a decimal string (cursors exceed JSON's safe integers), or null. */
    static void putDecimal(ObjectNode node, String name, OptionalLong value) {
        if (value.isPresent()) {
            node.put(name, Long.toString(value.getAsLong()));
        } else {
            node.putNull(name);
        }
    }
}
