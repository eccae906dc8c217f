package dev.lomicontrol.proof.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What one fault did to a real broker, in the terms of issue 8: how the effect was blocked, how
 * many acknowledged operations were lost or replaced, whether the broker told the admin what to
 * do (its words), and whether it recovered once the fault was removed. {@code problems} lists every
 * broken expectation; an empty list is a pass. A skipped fault says why.
 */
record FaultReport(
        String fault,
        String blockedWith,
        int lost,
        int replaced,
        String adminMessage,
        String recovered,
        List<String> notes,
        List<String> problems,
        String skipped,
        Duration elapsed) {

    static FaultReport skipped(String fault, String reason) {
        return new FaultReport(fault, "-", 0, 0, "", "", List.of(), List.of(), reason, Duration.ZERO);
    }

    /** This report with one more note. */
    FaultReport withNote(String note) {
        List<String> more = new ArrayList<>(notes);
        more.add(note);
        return new FaultReport(
                fault,
                blockedWith,
                lost,
                replaced,
                adminMessage,
                recovered,
                List.copyOf(more),
                problems,
                skipped,
                elapsed);
    }

    boolean passed() {
        return problems.isEmpty();
    }

    /** The one report line of {@code bench/faults.sh}. */
    String line() {
        if (!skipped.isEmpty()) {
            return "fault " + fault + ": SKIPPED (" + skipped + ")";
        }
        return String.join(
                        ", ",
                        List.of(
                                "fault " + fault,
                                "blocked-with " + blockedWith,
                                "lost=" + lost,
                                "replaced=" + replaced,
                                "admin-message-present="
                                        + (adminMessage.isEmpty() ? "no" : "yes (\"" + oneLine(adminMessage) + "\")"),
                                "recovered=" + recovered,
                                (problems.isEmpty() ? "PASS" : "FAIL " + problems),
                                String.format("%.1f s", elapsed.toMillis() / 1000.0)))
                + (notes.isEmpty() ? "" : "\n    notes: " + String.join("; ", notes));
    }

    private static String oneLine(String text) {
        String flat = text.replace('\n', ' ').strip();
        return flat.length() <= 300 ? flat : flat.substring(0, 300) + "…";
    }

    /** Collects the facts of one fault run while it happens. */
    static final class Builder {
        final String fault;
        private final long started = System.nanoTime();
        private final List<String> notes = new ArrayList<>();
        private final List<String> problems = new ArrayList<>();
        String blockedWith = "nothing";
        int lost;
        int replaced;
        String adminMessage = "";
        String recovered = "no";

        Builder(String fault) {
            this.fault = fault;
        }

        /** Records a problem unless {@code holds}. */
        void expect(boolean holds, String what) {
            if (!holds) {
                problems.add(what);
            }
        }

        void note(String note) {
            notes.add(note);
        }

        FaultReport build() {
            return new FaultReport(
                    fault,
                    blockedWith,
                    lost,
                    replaced,
                    adminMessage,
                    recovered,
                    List.copyOf(notes),
                    List.copyOf(problems),
                    "",
                    Duration.ofNanos(System.nanoTime() - started));
        }
    }
}
