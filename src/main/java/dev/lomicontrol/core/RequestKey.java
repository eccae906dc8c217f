package dev.lomicontrol.core;

/** The client-chosen durable request identity: 1-128 characters of {@code [A-Za-z0-9._:-]}. */
@WireString(
        maxLength = 128,
        pattern = "[A-Za-z0-9._:-]+",
        description =
                "your key for this request (1-128 of A-Za-z0-9._:-); resend the same request with the same key after a lost answer, or read it back with lomi_operation_get")
public record RequestKey(String value) {

    public RequestKey {
        Ids.requireToken(value, "requestKey");
    }

    @Override
    public String toString() {
        return value;
    }
}
