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
import dev.lomicontrol.terminal.api.TerminalSpecs;
import dev.lomicontrol.tools.Decimal;
import dev.lomicontrol.tools.Encoder;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
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
    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    /** The run behind a lomi_terminal_run operation, while the broker holds it. */
    record RunRef(CommandRun run, Terminal terminal) {}

    private final Terminals terminals;
    private final Function<OperationId, Optional<RunRef>> runs;
    private final Function<OperationId, Optional<TerminalSpecs.Created>> commanded;
    private final int outputTailBytes;

    /**
     * {@code runs}: the run behind an operation; {@code commanded}: what a create with a command made,
     * while the broker holds it.
     */
    TerminalFollows(
            Terminals terminals,
            Function<OperationId, Optional<RunRef>> runs,
            Function<OperationId, Optional<TerminalSpecs.Created>> commanded,
            int outputTailBytes) {
        this.terminals = terminals;
        this.runs = runs;
        this.commanded = commanded;
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
            Optional<TerminalSpecs.Created> made = commanded.apply(operation.id());
            if (!operation.state().isTerminal() && made.isPresent()) {
                answer.set("result", Encoder.encode(made.get()));
            }
            JsonNode result = answer.path("result");
            JsonNode node = "failure".equals(result.path("kind").asString("")) ? result.path("detail") : result;
            if (node instanceof ObjectNode created
                    && "terminal_created".equals(created.path("kind").asString(""))) {
                Optional<Terminal> terminal = created(operation)
                        .or(() -> made.flatMap(TerminalFollows.this::terminal))
                        .filter(Terminal::isAlive);
                if (terminal.isPresent()) {
                    created.put("ready", terminal.get().prompt() == PromptState.READY);
                } else {
                    created.putNull("ready");
                }
                Optional<RunRef> entry = runs.apply(operation.id());
                if (created.path("run") instanceof ObjectNode run && entry.isPresent()) {
                    Optional<TerminalSpecs.RunOutput> tail =
                            tail(entry.get().run(), entry.get().terminal());
                    run.set("output", tail.isPresent() ? Encoder.encode(tail.get()) : JSON.nullNode());
                }
            }
            return answer;
        }

        /** The live terminal a create started (as its stored result names it). */
        private Optional<Terminal> created(Operation operation) {
            return operation
                    .result()
                    .map(text -> {
                        try {
                            return MAPPER.readTree(text)
                                    .path("terminalSessionId")
                                    .asString("");
                        } catch (RuntimeException e) {
                            return "";
                        }
                    })
                    .filter(id -> !id.isEmpty())
                    .flatMap(terminals::find);
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
            JsonNode result = answer.path("result");
            JsonNode run = "failure".equals(result.path("kind").asString("")) ? result.path("detail") : result;
            Optional<RunRef> entry = runs.apply(operation.id());
            if (run instanceof ObjectNode node
                    && "terminal_run".equals(node.path("kind").asString(""))
                    && entry.isPresent()) {
                Optional<TerminalSpecs.RunOutput> tail =
                        tail(entry.get().run(), entry.get().terminal());
                node.set("output", tail.isPresent() ? Encoder.encode(tail.get()) : JSON.nullNode());
            }
            return answer;
        }
    }

    /** The live terminal {@code created} names. */
    private Optional<Terminal> terminal(TerminalSpecs.Created created) {
        return terminals.find(created.terminalSessionId().value());
    }

    /**
     * The last {@code outputTailBytes} of a finished command's own output (from OSC 133 C, past its
     * echo, to its end cursor); empty while it runs, when the tail size is 0 or the ring lost it.
     */
    private Optional<TerminalSpecs.RunOutput> tail(CommandRun run, Terminal terminal) {
        if (!run.completed() || run.endCursor().isEmpty() || outputTailBytes == 0) {
            return Optional.empty();
        }
        long end = run.endCursor().getAsLong();
        long own = run.startedCursor().orElse(run.startCursor());
        long from = Math.max(own, end - outputTailBytes);
        try {
            OutputPage page = terminal.readCommand(run, from, (int) Math.max(1, Math.min(outputTailBytes, end - from)));
            return Optional.of(new TerminalSpecs.RunOutput(
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
