package dev.lomicontrol.ledger;

import dev.lomicontrol.core.SessionId;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * A test class on one real ledger, opened with the defaults before each test and closed after it,
 * with one agent session and a retry epoch issued to it. A subclass's own {@code @BeforeEach} runs
 * after this one, on the open ledger.
 */
abstract class OpenLedgerTest {

    @TempDir
    Path temp;

    LedgerFixture fixture;
    Ledger ledger;
    SessionId session;
    RetryEpoch epoch;

    @BeforeEach
    void openLedger() {
        fixture = new LedgerFixture(temp);
        ledger = fixture.open();
        session = fixture.session();
        epoch = ledger.issueEpoch(session);
    }

    @AfterEach
    void closeLedger() {
        ledger.close();
    }
}
