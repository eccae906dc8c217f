package dev.lomicontrol.git;

import java.util.List;

/**
 * An exact, immutable mutation plan that the admin approves before it runs. {@code expectedHead}
 * and {@code expectedRemoteHead} are commit ids ("" when absent); {@code reference} is a full ref
 * name; {@code observationRevision} is the status the plan was made against. {@code remoteUrl} is where
 * a fetch, pull or push really goes (after {@code pushurl}, {@code insteadOf} and {@code pushInsteadOf},
 * credentials redacted; "" for local plans): the admin approves it, and the plan runs only while the
 * remote still resolves to it.
 */
public record GitPlan(
        String kind,
        List<String> paths,
        String message,
        String remote,
        String reference,
        String expectedHead,
        String expectedRemoteHead,
        String observationRevision,
        String remoteUrl) {

    /** What the broker never runs for any plan (said in the plan the admin approves). */
    public static final String REPOSITORY_CODE = NoRepositoryCode.PROMISE;

    public GitPlan {
        paths = List.copyOf(paths);
    }

    /** A plan that contacts no remote. */
    public GitPlan(
            String kind,
            List<String> paths,
            String message,
            String remote,
            String reference,
            String expectedHead,
            String expectedRemoteHead,
            String observationRevision) {
        this(kind, paths, message, remote, reference, expectedHead, expectedRemoteHead, observationRevision, "");
    }

    /**
     * A stable JSON rendering (fields in declaration order, then {@code repositoryCode}: what is
     * never run) for approval screens and the ledger.
     */
    public String toJson() {
        StringBuilder json = new StringBuilder("{\"kind\":").append(quote(kind)).append(",\"paths\":[");
        for (int i = 0; i < paths.size(); i++) {
            json.append(i == 0 ? "" : ",").append(quote(paths.get(i)));
        }
        return json.append("],\"message\":")
                .append(quote(message))
                .append(",\"remote\":")
                .append(quote(remote))
                .append(",\"reference\":")
                .append(quote(reference))
                .append(",\"expectedHead\":")
                .append(quote(expectedHead))
                .append(",\"expectedRemoteHead\":")
                .append(quote(expectedRemoteHead))
                .append(",\"observationRevision\":")
                .append(quote(observationRevision))
                .append(",\"remoteUrl\":")
                .append(quote(remoteUrl))
                .append(",\"repositoryCode\":")
                .append(quote(NoRepositoryCode.PROMISE))
                .append('}')
                .toString();
    }

    private static String quote(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> out.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
            }
        }
        return out.append('"').toString();
    }
}
