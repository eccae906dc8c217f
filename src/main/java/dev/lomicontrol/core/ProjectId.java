package dev.lomicontrol.core;

/** An approved project folder's id. */
@WireString(maxLength = 128, pattern = "[A-Za-z0-9._:-]+")
public record ProjectId(String value) {

    public ProjectId {
        Ids.requireToken(value, "projectId");
    }

    @Override
    public String toString() {
        return value;
    }
}
