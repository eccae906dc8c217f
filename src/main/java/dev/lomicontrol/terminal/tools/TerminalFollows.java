package dev.lomicontrol.terminal.tools;

import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.ledger.Operation;
import dev.lomicontrol.ledger.OperationState;
import dev.lomicontrol.operations.OperationJson;
import dev.lomicontrol.operations.OperationWaits;
import dev.lomicontrol.operations.Waits;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.terminal.CommandRun;
import dev.lomicontrol.terminal.OutputPage;
import dev.lomicontrol.terminal.PromptState;
import dev.lomicontrol.terminal.Terminal;
import dev.lomicontrol.terminal.Terminals;
import dev.lomicontrol.terminal.api.TerminalResults;
import dev.lomicontrol.tools.Decimal;
import dev.lomicontrol.tools.Encoder;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the terminal tools add to waiting for and answering their operations (issue 20): a new
 * terminal's caller also waits for the first ready prompt and learns {@code result.ready}; a command
 * run's own call waits 750 ms without a waitMs, and a finished run's answer carries the tail of the
 * command's own output ({@code result.output}), read from the live ring as the answer is made; a
 * create with a command waits as a run does and carries the run, its tail included, in
 * {@code result.run}.
 */
final class TerminalFollows {

    /** How long lomi_terminal_run's own answer waits for the exit code when the caller sent no waitMs. */
    static final long RUN_ANSWER_WAIT_MS = 750;

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final Terminals terminals;
    private final Function<OperationId, Optional<Running>> runs;
    private final Function<OperationId, Optional<TerminalResults.Created>> commanded;
    private final Function<OperationId, Optional<TerminalResults.Created>> made;
    private final int outputTailBytes;

    /**
     * {@code runs}: the run behind an operation; {@code commanded}: what a create with a command made,
     * while its command waits or runs; {@code made}: what any create made, while its terminal lives —
     * each while the broker holds it.
     */
    TerminalFollows(
            Terminals terminals,
            Function<OperationId, Optional<Running>> runs,
            Function<OperationId, Optional<TerminalResults.Created>> commanded,
            Function<OperationId, Optional<TerminalResults.Created>> made,
            int outputTailBytes) {
        this.terminals = terminals;
        this.runs = runs;
        this.commanded = commanded;
        this.made = made;
        this.outputTailBytes = outputTailBytes;
    }

    /** lomi_terminal_create's follow. */
    OperationWaits.Follow create() {
        return new CreateFollow();
    }

    /** lomi_terminal_run's follow. */
    OperationWaits.Follow run() {
        return new RunFollow();
    }

    /**
     * A new terminal's operation: a caller that waits also waits for the shell's first ready prompt
     * (woken by the terminal's output), and every answer says whether the prompt is ready now.
     */
    private final class CreateFollow implements OperationWaits.Follow {

        @Override
        public boolean done(Operation operation) {
            if (!operation.state().isTerminal()) {
                return false;
            }
            return operation.state() != OperationState.SUCCEEDED
                    || created(operation)
                            .map(t -> !t.isAlive() || t.prompt() == PromptState.READY)
                            .orElse(true);
        }

        @Override
        public Duration defaultWait(Operation operation) {
            return commanded.apply(operation.id()).isPresent() ? Duration.ofMillis(RUN_ANSWER_WAIT_MS) : Duration.ZERO;
        }

        @Override
        public void watch(Operation operation, Waits.Waiter waiter) {
            created(operation)
                    .or(() -> commanded.apply(operation.id()).flatMap(TerminalFollows.this::terminal))
                    .ifPresent(terminal -> waiter.also(terminal.onChange(waiter::wake)));
        }

        /**
         * Every answer says whether the prompt is ready now; a create with a command answers, while
         * the command runs, the terminal it made (run null) — its ids let the caller read or
         * interrupt the command — and, once it ended, the run's output tail.
         */
        @Override
        public ObjectNode answer(Session session, Operation operation) {
            ObjectNode answer = OperationJson.of(operation);
            Optional<TerminalResults.Created> waiting = commanded.apply(operation.id());
            if (!operation.state().isTerminal() && waiting.isPresent()) {
                answer.set("result", Encoder.encode(waiting.get()));
            }
            // a create's result, stored or answered, is always what it made (terminal_created)
            resultOf(answer, operation).ifPresent(created -> {
                Optional<Terminal> terminal = created(operation)
                        .or(() -> waiting.flatMap(TerminalFollows.this::terminal))
                        .filter(Terminal::isAlive);
                if (terminal.isPresent()) {
                    created.put("ready", terminal.get().prompt() == PromptState.READY);
                } else {
                    created.putNull("ready");
                }
                Optional<Running> entry = runs.apply(operation.id());
                if (created.path("run") instanceof ObjectNode run && entry.isPresent()) {
                    run.set("output", encodedTail(entry.get()));
                }
            });
            return answer;
        }

        /** The live terminal a settled create started. */
        private Optional<Terminal> created(Operation operation) {
            return operation.result().isPresent()
                    ? made.apply(operation.id()).flatMap(TerminalFollows.this::terminal)
                    : Optional.empty();
        }
    }

    /**
     * A command run's operation: its own call waits 750 ms when the caller sent no waitMs (quick
     * commands come back settled, as before), and the answer of a finished run carries the tail of the
     * command's own output from the terminal's ring ({@code result.output}); the stored result never
     * holds terminal text.
     */
    private final class RunFollow implements OperationWaits.Follow {

        @Override
        public Duration defaultWait() {
            return Duration.ofMillis(RUN_ANSWER_WAIT_MS);
        }

        @Override
        public ObjectNode answer(Session session, Operation operation) {
            ObjectNode answer = OperationJson.of(operation);
            // a run's result is stored only when the run settles (terminal_run), from the run held here
            Optional<Running> entry = runs.apply(operation.id());
            if (entry.isPresent()) {
                resultOf(answer, operation).ifPresent(run -> run.set("output", encodedTail(entry.get())));
            }
            return answer;
        }
    }

    /**
     * The result object of an answer ({@link OperationJson#view}): the stored result, or for an
     * operation that ended with an error code, the stored result the failure carries as its detail.
     */
    private static Optional<ObjectNode> resultOf(ObjectNode answer, Operation operation) {
        JsonNode result = answer.path("result");
        JsonNode stored = operation.errorCode().isPresent() ? result.path("detail") : result;
        return stored instanceof ObjectNode object ? Optional.of(object) : Optional.empty();
    }

    /** The finished run's output tail as the answer carries it (null when there is none). */
    private JsonNode encodedTail(Running entry) {
        Optional<TerminalResults.RunOutput> tail = tail(entry.run, entry.terminal);
        return tail.isPresent() ? Encoder.encode(tail.get()) : JSON.nullNode();
    }

    /** The live terminal {@code created} names. */
    private Optional<Terminal> terminal(TerminalResults.Created created) {
        return terminals.find(created.terminalSessionId().value());
    }

    /**
     * The last {@code outputTailBytes} of a finished command's own output (from OSC 133 C, past its
     * echo, to its end cursor); empty while it runs, when the tail size is 0 or the ring lost it.
     */
    private Optional<TerminalResults.RunOutput> tail(CommandRun run, Terminal terminal) {
        if (!run.completed() || run.endCursor().isEmpty() || outputTailBytes == 0) {
            return Optional.empty();
        }
        long end = run.endCursor().getAsLong();
        long own = run.startedCursor().orElse(run.startCursor());
        long from = Math.max(own, end - outputTailBytes);
        try {
            OutputPage page = terminal.readCommand(run, from, (int) Math.max(1, Math.min(outputTailBytes, end - from)));
            return Optional.of(new TerminalResults.RunOutput(
                    page.text(),
                    Decimal.of(page.cursor()),
                    Decimal.of(page.nextCursor()),
                    page.cursor() > own,
                    page.gap()));
        } catch (LomiException e) {
            return Optional.empty();
        }
    }
}
