package dev.lomicontrol.proof.fuzz;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * One line (occasionally a few glued by a bare CR) sent to the helper, and what the helper may
 * answer to it. {@code id} is the id a reply must carry when {@link Outcome#ANSWER} is allowed;
 * {@code forbidden} are ids that appear inside the line but must never be answered (members of a
 * batch, a client's own response, the halves of a duplicate key).
 */
record Probe(String kind, byte[] bytes, Set<Outcome> outcomes, IdKey id, String method, List<IdKey> forbidden) {

    /** What may come back for a probe. */
    enum Outcome {
        /** exactly one response with the probe's id */
        ANSWER,
        /** one error response with {@code id:null} */
        NULL_ERROR,
        /** nothing at all */
        NONE,
        /** a mutated line: any of the above, and a reply id taken from the line's own bytes */
        FOREIGN
    }

    Probe {
        outcomes = Set.copyOf(outcomes);
        forbidden = List.copyOf(forbidden);
    }

    static Probe answer(String kind, String line, IdKey id, String method) {
        return new Probe(kind, Lines.bytes(line), EnumSet.of(Outcome.ANSWER), id, method, List.of());
    }

    static Probe nullError(String kind, byte[] bytes, List<IdKey> forbidden) {
        return new Probe(kind, bytes, EnumSet.of(Outcome.NULL_ERROR), null, "", forbidden);
    }

    static Probe none(String kind, byte[] bytes, List<IdKey> forbidden) {
        return new Probe(kind, bytes, EnumSet.of(Outcome.NONE), null, "", forbidden);
    }

    /** Printable form for a failure report: the kind and the bytes, escaped, cut to {@code max} characters. */
    String describe(int max) {
        StringBuilder text =
                new StringBuilder(kind).append(" (").append(bytes.length).append(" bytes): ");
        for (int i = 0; i < bytes.length && text.length() < max; i++) {
            int b = bytes[i] & 0xff;
            text.append(b >= 0x20 && b < 0x7f && b != '\\' ? String.valueOf((char) b) : String.format("\\x%02x", b));
        }
        return text.length() >= max ? text.append("…").toString() : text.toString();
    }

    /** Byte helpers for building probes. */
    static final class Lines {
        private Lines() {}

        static byte[] bytes(String line) {
            return (line + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }
    }
}
