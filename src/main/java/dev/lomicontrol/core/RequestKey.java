package dev.lomicontrol.core;

/** The client-chosen durable request identity: 1-128 characters of {@code [A-Za-z0-9._:-]}. */
@WireString(maxLength = 128, pattern = "[A-Za-z0-9._:-]+")
public record RequestKey(String value) {

    public RequestKey {
        Ids.requireToken(value, "requestKey");
    }

    @Override
    public String toString() {
        return value;
    }
}
