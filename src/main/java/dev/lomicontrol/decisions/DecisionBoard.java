package dev.lomicontrol.decisions;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.OperationId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Human decisions on operations in {@code awaiting_user}: domain adapters post the exact plan and
 * a callback; the admin approves or rejects in the console ({@code decision list|approve|reject}).
 * Each decision is delivered once.
 */
public final class DecisionBoard {

    private final Map<OperationId, Entry> pending = new LinkedHashMap<>();

    private record Entry(PendingDecision decision, Consumer<Boolean> resolver) {}

    public synchronized void post(PendingDecision decision, Consumer<Boolean> resolver) {
        pending.put(decision.operationId(), new Entry(decision, resolver));
    }

    public synchronized List<PendingDecision> list() {
        List<PendingDecision> out = new ArrayList<>();
        pending.values().forEach(e -> out.add(e.decision()));
        return out;
    }

    /** Delivers the admin's decision; TARGET_NOT_FOUND when nothing waits under that id. */
    public PendingDecision decide(OperationId id, boolean approve) {
        Entry entry;
        synchronized (this) {
            entry = pending.remove(id);
        }
        if (entry == null) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "no operation " + id + " is awaiting a decision");
        }
        entry.resolver().accept(approve);
        return entry.decision();
    }

    /** Withdraws a decision whose operation ended otherwise (cancelled, session revoked). */
    public synchronized void withdraw(OperationId id) {
        pending.remove(id);
    }
}
