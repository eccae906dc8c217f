package dev.lomicontrol.ledger;

import dev.lomicontrol.core.OperationId;
import java.time.Instant;
import java.util.Optional;

/** One row of the append-only history: the event feed behind {@code lomi_events_read}. */
public record LedgerEvent(
        long sequence,
        String kind,
        OperationId operationId,
        String tool,
        Optional<String> workspaceId,
        OperationState state,
        EffectState effect,
        String actor,
        Optional<String> note,
        Instant at) {}
