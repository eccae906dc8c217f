package dev.lomicontrol.core;

/** An approved project folder's id. */
public record ProjectId(String value) {

    public ProjectId {
        Ids.requireToken(value, "projectId");
    }

    @Override
    public String toString() {
        return value;
    }
}
