package dev.lomicontrol.operations;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.ledger.Operation;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.tools.OperationView;
import dev.lomicontrol.tools.ToolSpec;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * How an operation is answered, by its own OP tool and by {@code lomi_operation_get}, when the
 * call may wait ({@code waitMs}): the answer comes as soon as the operation settles (a terminal
 * state), or — when the wait ends first — as it stands then, with the same operation id. Waiting
 * only reads the receipt again: it never dispatches, re-sends or settles anything.
 *
 * <p>A tool may say more through its {@link Follow}: what else a caller waits for (a new terminal's
 * first ready prompt), what else wakes it (the terminal's output), what its answer adds from the
 * live resource (a finished command's output tail), and how long its own call waits when the
 * caller sent no {@code waitMs} (a command run: 750 ms, as before).
 */
public final class OperationWaits {

    /** A tool's additions to waiting for and answering its operations; every method has the plain default. */
    public interface Follow {

        /** Whether a caller waiting on {@code operation} has what it waits for (default: it settled). */
        default boolean done(Operation operation) {
            return operation.state().isTerminal();
        }

        /** Besides the ledger, what may change {@link #done}: hook {@code waiter} up to it. */
        default void watch(Operation operation, Waits.Waiter waiter) {}

        /** The answer's data for {@code operation} (default: the operation as stored). */
        default ObjectNode answer(Session session, Operation operation) {
            return OperationJson.of(operation);
        }

        /** How long the tool's own call waits when the caller sent no waitMs. */
        default Duration defaultWait() {
            return Duration.ZERO;
        }

        /** How long the tool's own call waits on {@code operation} when the caller sent no waitMs. */
        default Duration defaultWait(Operation operation) {
            return defaultWait();
        }
    }

    private static final Follow PLAIN = new Follow() {};

    private final Ledger ledger;
    private final Waits waits;
    private final Map<String, Follow> follows = new ConcurrentHashMap<>();

    public OperationWaits(Ledger ledger, Waits waits) {
        this.ledger = ledger;
        this.waits = waits;
    }

    /** Registers what {@code spec}'s operations add to waiting and answering. */
    public void follow(ToolSpec<?> spec, Follow follow) {
        if (follows.putIfAbsent(spec.name(), follow) != null) {
            throw new IllegalStateException("two follows for " + spec.name());
        }
    }

    /**
     * The answer of an OP tool's own call: {@code answer} is what its handler returned (the operation),
     * waited on for {@code wait} — or, when that is zero, for the tool's default wait.
     */
    public Object ownAnswer(Session session, ToolSpec<?> spec, Object answer, Duration wait) {
        Follow follow = follows.getOrDefault(spec.name(), PLAIN);
        if (wait.isZero() && follow == PLAIN) {
            return answer;
        }
        Optional<OperationId> id = operationId(answer);
        if (id.isEmpty()) {
            return answer;
        }
        Optional<Operation> current = ledger.get(session.id(), id.get());
        if (current.isEmpty()) {
            return answer;
        }
        return answer(session, current.get(), wait.isZero() ? follow.defaultWait(current.get()) : wait);
    }

    /**
     * The operation's answer once its tool's wait condition holds (by default: it settled) or
     * {@code wait} ended; CONTROL_REVOKED when the session loses its authority meanwhile.
     */
    public ObjectNode answer(Session session, Operation current, Duration wait) {
        Follow follow = follows.getOrDefault(current.tool().value(), PLAIN);
        if (wait.isZero() || follow.done(current)) {
            return follow.answer(session, current);
        }
        Operation settled = waits.polling(
                session,
                wait,
                waiter -> follow.watch(current, waiter.operation(current.id())),
                () -> reread(session, current),
                follow::done);
        return follow.answer(session, settled);
    }

    private Operation reread(Session session, Operation operation) {
        return ledger.get(session.id(), operation.id())
                .orElseThrow(() -> new LomiException(
                        ErrorCode.TARGET_NOT_FOUND,
                        "no operation with that id was made by this session; use an operationId"
                                + " this session was answered (an earlier connection's are not visible)"));
    }

    private static Optional<OperationId> operationId(Object answer) {
        if (answer instanceof OperationView view) {
            return Optional.of(view.operationId());
        }
        if (answer instanceof JsonNode node && node.path("operationId").isString()) {
            return Optional.of(new OperationId(node.get("operationId").asString()));
        }
        return Optional.empty();
    }
}
