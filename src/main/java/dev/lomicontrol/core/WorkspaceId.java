package dev.lomicontrol.core;

/** A workspace id within an approved project. */
public record WorkspaceId(String value) {

    public WorkspaceId {
        Ids.requireToken(value, "workspaceId");
    }

    @Override
    public String toString() {
        return value;
    }
}
