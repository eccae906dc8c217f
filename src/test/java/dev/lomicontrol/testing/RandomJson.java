package dev.lomicontrol.testing;

import java.util.Random;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Seeded random JSON trees: strings with escapes and non-ASCII text, ints, longs, doubles, nesting up to 6 levels. */
public final class RandomJson {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private RandomJson() {}

    public static JsonNode value(Random random) {
        return randomValue(random, 0);
    }

    /** A random object (the shape of tool arguments). */
    public static ObjectNode object(Random random) {
        ObjectNode object = NODES.objectNode();
        for (int i = random.nextInt(5); i > 0; i--) {
            object.set(randomString(random), randomValue(random, 1));
        }
        return object;
    }

    private static JsonNode randomValue(Random random, int depth) {
        int kind = random.nextInt(depth > 4 ? 6 : 8);
        switch (kind) {
            case 0:
                return NODES.stringNode(randomString(random));
            case 1:
                return NODES.numberNode(random.nextInt());
            case 2:
                return NODES.numberNode(random.nextLong());
            case 3:
                return NODES.numberNode(random.nextDouble() * Math.pow(10, random.nextInt(40) - 20));
            case 4:
                return NODES.booleanNode(random.nextBoolean());
            case 5:
                return NODES.nullNode();
            case 6:
                ObjectNode object = NODES.objectNode();
                for (int i = random.nextInt(5); i > 0; i--) {
                    object.set(randomString(random), randomValue(random, depth + 1));
                }
                return object;
            default:
                ArrayNode array = NODES.arrayNode();
                for (int i = random.nextInt(5); i > 0; i--) {
                    array.add(randomValue(random, depth + 1));
                }
                return array;
        }
    }

    private static String randomString(Random random) {
        String[] pieces = {"a", "b", " ", "\"", "\\", "/", "\n", "\t", "\u0000", "\u001f", "ż", "ó", "🐢", "\u2028", "é"
        };
        StringBuilder text = new StringBuilder();
        for (int i = random.nextInt(12); i > 0; i--) {
            text.append(pieces[random.nextInt(pieces.length)]);
        }
        return text.toString();
    }
}
