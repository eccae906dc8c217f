package dev.lomicontrol.proof.fuzz;

import java.util.LinkedHashSet;
import java.util.Random;
import java.util.Set;

/**
 * JSON written as text, so the fuzz can say things a tree cannot hold: {@code 1e999999}, 400-digit
 * integers, duplicate keys, lone surrogates as escapes. Everything here is seeded and reproducible.
 */
final class JsonText {

    /** Strings an agent would never send but a parser must survive. */
    private static final String[] ODD_STRINGS = {
        "",
        " ",
        "\u0000",
        "\u2028\u2029",
        "\uD83D\uDE00",
        "\uFEFF",
        "..",
        "../../etc/passwd",
        "/",
        "a\nb",
        "\"",
        "\\",
        "null",
        "0",
        "-1",
        "1e999999",
        "\u202E",
        "%s%n",
        "${jndi:x}",
        "\r",
        "\t"
    };

    private JsonText() {}

    /** A JSON string literal; non-ASCII is written as {@code \\uXXXX}, so lone surrogates survive as escapes. */
    static String quote(String value) {
        StringBuilder out = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || c > 0x7e) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }

    /** A random string: odd, short random, unicode-heavy or long. */
    static String randomString(Random random) {
        switch (random.nextInt(6)) {
            case 0:
                return ODD_STRINGS[random.nextInt(ODD_STRINGS.length)];
            case 1:
                return "x".repeat(random.nextInt(3) == 0 ? 1000 + random.nextInt(5000) : random.nextInt(200));
            case 2: {
                StringBuilder text = new StringBuilder();
                for (int i = random.nextInt(24); i > 0; i--) {
                    text.append((char) random.nextInt(0x10000));
                }
                return text.toString();
            }
            case 3:
                return Long.toString(random.nextLong() & Long.MAX_VALUE, 16 + random.nextInt(21));
            case 4:
                return Integer.toString(random.nextInt(50));
            default: {
                StringBuilder text = new StringBuilder();
                for (int i = random.nextInt(40); i > 0; i--) {
                    text.append((char) (0x21 + random.nextInt(0x5e)));
                }
                return text.toString();
            }
        }
    }

    /** A number literal, often at or past a limit. */
    static String randomNumber(Random random) {
        switch (random.nextInt(12)) {
            case 0:
                return "1e999999";
            case 1:
                return "-1e999999";
            case 2:
                return "9".repeat(400);
            case 3:
                return "-" + "1".repeat(400);
            case 4:
                return "0." + "0".repeat(300) + "1";
            case 5:
                return Long.toString(Long.MIN_VALUE);
            case 6:
                return "18446744073709551616";
            case 7:
                return "1.5";
            case 8:
                return "-0";
            case 9:
                return "1E-400";
            case 10:
                return Integer.toString(random.nextInt(1000) - 10);
            default:
                return Integer.toString(Integer.MAX_VALUE) + "0";
        }
    }

    /** Any JSON value up to {@code depth} levels deep. */
    static String randomValue(Random random, int depth) {
        int kind = random.nextInt(depth <= 0 ? 5 : 7);
        switch (kind) {
            case 0:
                return "null";
            case 1:
                return random.nextBoolean() ? "true" : "false";
            case 2:
                return randomNumber(random);
            case 3:
            case 4:
                return quote(randomString(random));
            case 5: {
                StringBuilder array = new StringBuilder("[");
                for (int i = random.nextInt(4); i > 0; i--) {
                    array.append(randomValue(random, depth - 1)).append(i > 1 ? "," : "");
                }
                return array.append(']').toString();
            }
            default:
                return randomObject(random, depth);
        }
    }

    /** A JSON object with distinct keys and random values. */
    static String randomObject(Random random, int depth) {
        // keys are distinct: a duplicate key is its own probe, not an accident of this one
        Set<String> keys = new LinkedHashSet<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            keys.add(randomString(random));
        }
        StringBuilder object = new StringBuilder("{");
        for (String key : keys) {
            object.append(object.length() > 1 ? "," : "")
                    .append(quote(key))
                    .append(':')
                    .append(randomValue(random, depth - 1));
        }
        return object.append('}').toString();
    }
}
