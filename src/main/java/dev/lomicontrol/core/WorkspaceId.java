package dev.lomicontrol.core;

/** A workspace id within an approved project. */
@WireString(maxLength = 128, pattern = "[A-Za-z0-9._:-]+")
public record WorkspaceId(String value) {

    public WorkspaceId {
        Ids.requireToken(value, "workspaceId");
    }

    @Override
    public String toString() {
        return value;
    }
}
