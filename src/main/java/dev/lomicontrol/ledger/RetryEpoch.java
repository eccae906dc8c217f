package dev.lomicontrol.ledger;

import dev.lomicontrol.core.InstanceId;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.core.SessionId;
import java.time.Instant;

/** A retry window issued to one session of one broker instance; valid until {@code expiresAt}. */
public record RetryEpoch(
        RetryEpochId id, SessionId session, InstanceId instance, Instant issuedAt, Instant expiresAt) {}
