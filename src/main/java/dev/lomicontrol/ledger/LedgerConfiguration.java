package dev.lomicontrol.ledger;

import dev.lomicontrol.core.DataDirectory;
import java.security.SecureRandom;
import java.time.Clock;
import javax.sql.DataSource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.jdbc.core.dialect.JdbcDialect;

/**
 * Spring wiring of the ledger: the {@link Ledger} (opened, checked and recovered at startup; a
 * refusal stops the broker with the ledger's message) and its store as the application's
 * {@link DataSource} ({@link LedgerJdbc#dataSource()}: the writer's connection inside
 * {@link Ledger#write}, a {@code query_only} reader elsewhere), with the SQLite dialect Spring Data
 * JDBC needs. The repositories themselves come from {@link Ledger#jdbc()}, not from a scan.
 */
@Configuration(proxyBeanMethods = false)
public class LedgerConfiguration {

    @Bean(destroyMethod = "close")
    Ledger ledger(DataDirectory dataDirectory, LedgerProperties properties, Clock clock) {
        return Ledger.open(dataDirectory.store(), properties, clock, new SecureRandom());
    }

    @Bean
    DataSource ledgerDataSource(Ledger ledger) {
        return ledger.jdbc().dataSource();
    }

    @Bean
    JdbcDialect sqliteDialect() {
        return SqliteDialect.INSTANCE;
    }
}
