package dev.lomicontrol.pairing;

import java.time.Instant;

/** A pending enrollment the admin approves or denies, matched by {@code id} (the label is only a label). */
public record PairingRequest(
        String id, String clientLabel, String certificateSha256, long peerPid, Instant createdAt, Instant expiresAt) {}
