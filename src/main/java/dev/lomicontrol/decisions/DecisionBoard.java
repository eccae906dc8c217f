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

    static final int MAX_NOTICES = 64;

    private final Map<OperationId, Entry> pending = new LinkedHashMap<>();
    private final java.util.Deque<String> notices = new java.util.ArrayDeque<>();

    private record Entry(PendingDecision decision, Consumer<Boolean> resolver) {}

    private final List<Consumer<PendingDecision>> watchers = new java.util.concurrent.CopyOnWriteArrayList<>();

    public synchronized void post(PendingDecision decision, Consumer<Boolean> resolver) {
        pending.put(decision.operationId(), new Entry(decision, resolver));
        watchers.forEach(watcher -> watcher.accept(decision));
    }

    /** Calls {@code watcher} with every decision posted for the admin, as it arrives. */
    public void watch(Consumer<PendingDecision> watcher) {
        watchers.add(watcher);
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

    /** Records a request for the admin's attention that needs no decision (e.g. an agent asked to open a settings page); the oldest of 64 is dropped. */
    public synchronized void notice(String text) {
        if (notices.size() >= MAX_NOTICES) {
            notices.removeFirst();
        }
        notices.addLast(text);
    }

    /** The recorded attention requests, oldest first. */
    public synchronized List<String> notices() {
        return new ArrayList<>(notices);
    }

    /** Withdraws a decision whose operation ended otherwise (cancelled, session revoked). */
    public synchronized void withdraw(OperationId id) {
        pending.remove(id);
    }
}
