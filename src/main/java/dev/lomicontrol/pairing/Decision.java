package dev.lomicontrol.pairing;

/** How a pairing request ended. */
public sealed interface Decision {

    record Approved(Grant grant) implements Decision {}

    record Denied(String reason) implements Decision {}
}
