package dev.lomicontrol.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.DataDirectory;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.SessionId;
import dev.lomicontrol.core.ToolName;
import dev.lomicontrol.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.jdbc.test.autoconfigure.DataJdbcTest;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.data.jdbc.core.dialect.JdbcDialect;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.TestPropertySource;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.databind.json.JsonMapper;

/**
 * Slice test of the persistence layer as Spring wires it: the ledger bean on a real SQLite file,
 * its reader connections as the application DataSource (query_only, WAL, synchronous=FULL) and
 * the SQLite dialect for Spring Data JDBC.
 */
@DataJdbcTest
@AutoConfigureTestDatabase(replace = AutoConfigureTestDatabase.Replace.NONE)
@Import({LedgerConfiguration.class, LedgerPersistenceSliceTests.Beans.class})
@EnableConfigurationProperties(LedgerProperties.class)
@TestPropertySource(properties = "lomi.ledger.receipt-cap=10")
@Transactional(propagation = Propagation.NOT_SUPPORTED)
class LedgerPersistenceSliceTests {

    @TestConfiguration
    static class Beans {
        @Bean
        Clock clock() {
            return MutableClock.startingAt("2026-11-30T10:00:00Z");
        }

        @Bean
        DataDirectory dataDirectory() throws Exception {
            return new DataDirectory(Files.createTempDirectory("lomi-slice"));
        }
    }

    @Autowired
    Ledger ledger;

    @Autowired
    DataSource dataSource;

    @Autowired
    JdbcDialect dialect;

    @Autowired
    LedgerProperties properties;

    @Test
    void theApplicationDataSourceIsTheLedgersVerifiedReaderPool() {
        JdbcClient jdbc = JdbcClient.create(dataSource);

        assertThat(jdbc.sql("PRAGMA query_only").query(Integer.class).single()).isEqualTo(1);
        assertThat(jdbc.sql("PRAGMA journal_mode").query(String.class).single()).isEqualTo("wal");
        assertThat(jdbc.sql("PRAGMA synchronous").query(Integer.class).single()).isEqualTo(2);
        assertThat(jdbc.sql("PRAGMA foreign_keys").query(Integer.class).single())
                .isEqualTo(1);
        assertThat(jdbc.sql("PRAGMA trusted_schema").query(Integer.class).single())
                .isEqualTo(0);
        assertThat(dialect).isSameAs(SqliteDialect.INSTANCE);
        assertThat(dialect.limit().getLimitOffset(10, 20)).isEqualTo("LIMIT 10 OFFSET 20");
    }

    @Test
    void boundPropertiesReachTheLedgerAndACommittedReservationIsVisibleToReaders() {
        SessionId session = SessionId.random(new SecureRandom());
        RetryEpoch epoch = ledger.issueEpoch(session);
        Reservation reservation = ledger.reserve(new ReserveRequest(
                session,
                epoch.id(),
                new ProjectId("p"),
                new ToolName("lomi_files_mutate"),
                new RequestKey("slice-1"),
                JsonMapper.builder().build().readTree("{\"path\":\"a\"}"),
                Target.none()));

        assertThat(reservation).isInstanceOf(Reservation.Reserved.class);
        assertThat(properties.receiptCap()).isEqualTo(10);
        assertThat(ledger.maintenance().status().receiptCap()).isEqualTo(10);
        String state = JdbcClient.create(dataSource)
                .sql("SELECT state FROM operation WHERE request_key = 'slice-1'")
                .query(String.class)
                .single();
        assertThat(state).isEqualTo("queued");
        assertThat(Path.of(ledger.maintenance().status().database())).exists();
    }
}
