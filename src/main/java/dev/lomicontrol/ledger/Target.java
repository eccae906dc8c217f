package dev.lomicontrol.ledger;

/**
 * What the broker resolved a request to, from its own authenticated state and never from client
 * hints: the workspace, the exact resource, its generation and the revision the request is based
 * on. Part of the fingerprint, so a retry against a replaced resource is a conflict, not a replay.
 * Absent parts are empty strings.
 */
public record Target(String workspaceId, String resourceId, String generation, String revision) {

    public Target {
        workspaceId = workspaceId == null ? "" : workspaceId;
        resourceId = resourceId == null ? "" : resourceId;
        generation = generation == null ? "" : generation;
        revision = revision == null ? "" : revision;
    }

    public static Target none() {
        return new Target("", "", "", "");
    }
}
