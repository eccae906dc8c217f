package dev.lomicontrol.files;

import java.util.Map;

/** Just enough JSON writing for the small recovery records; no parser, no dependency. */
final class Json {

    private Json() {}

    /** An object of string and number members, in the map's iteration order. */
    static String object(Map<String, Object> members) {
        StringBuilder out = new StringBuilder("{\n");
        int i = 0;
        for (Map.Entry<String, Object> member : members.entrySet()) {
            out.append("  ").append(quote(member.getKey())).append(": ");
            Object value = member.getValue();
            out.append(value instanceof Number ? value.toString() : quote(String.valueOf(value)));
            out.append(++i < members.size() ? ",\n" : "\n");
        }
        return out.append("}\n").toString();
    }

    /** A JSON string literal. */
    static String quote(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
