package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.decisions.DecisionBoard;
import dev.lomicontrol.decisions.PendingDecision;
import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** Slice test of the decision group ({@code decision list|approve|reject}): no broker runs. */
class DecisionCommandsSliceTests extends ConsoleSliceSupport {

    @Autowired
    DecisionBoard decisions;

    @Test
    void theGroupIsRegisteredWithHelpForEachCommand() {
        assertGroupHelp("Decisions", "decision list", "decision approve", "decision reject");
    }

    @Test
    void aDecisionIsDeliveredOnceAndAnUnknownOneIsRefused() {
        assertThat(ok("decision list")).contains("no operations are awaiting");
        OperationId id = OperationId.random(new SecureRandom());
        AtomicReference<Boolean> approved = new AtomicReference<>();
        decisions.post(
                new PendingDecision(id, "lomi_files_mutate", "write a.txt", "{\"path\":\"a.txt\"}", clock.instant()),
                approved::set);
        assertThat(ok("decision list")).contains(id.value(), "lomi_files_mutate", "write a.txt");
        assertThat(ok("decision list --json")).startsWith("{").contains(id.value());
        assertThat(ok("decision reject " + id)).contains("rejected " + id);
        assertThat(approved.get()).isFalse();
        assertThat(fails("decision approve " + id, ConsoleResult.REFUSED)).contains("TARGET_NOT_FOUND");
    }

    @Test
    void argumentsAreParsedStrictly() {
        assertThat(fails("decision approve", ConsoleResult.USAGE)).contains("takes 1 argument");
        assertThat(fails("decision reject a b", ConsoleResult.USAGE)).contains("unexpected: b");
    }
}
