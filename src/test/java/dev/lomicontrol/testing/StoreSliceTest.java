package dev.lomicontrol.testing;

import dev.lomicontrol.core.DataDirectory;
import dev.lomicontrol.ledger.LedgerConfiguration;
import dev.lomicontrol.ledger.LedgerProperties;
import java.io.IOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.jdbc.test.autoconfigure.DataJdbcTest;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * A {@code @DataJdbcTest} of one Spring Data JDBC repository against the product's store: the
 * ledger bean opens a real SQLite file (WAL, synchronous=FULL, pragmas read back) in a data
 * directory of this test class's own, runs the real Flyway migrations, and repositories come from
 * {@code Ledger.jdbc()} as in the broker. No test transaction: the ledger's single writer owns every
 * write ({@code ledger.write}); the context is closed after the class and its directory deleted.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@DataJdbcTest
@AutoConfigureTestDatabase(replace = AutoConfigureTestDatabase.Replace.NONE)
@Import({LedgerConfiguration.class, StoreSliceTest.Beans.class})
@EnableConfigurationProperties(LedgerProperties.class)
@Transactional(propagation = Propagation.NOT_SUPPORTED)
@DirtiesContext
public @interface StoreSliceTest {

    /** The clock and the private data directory of one slice context. */
    @TestConfiguration
    class Beans {
        @Bean
        MutableClock clock() {
            return MutableClock.startingAt("2026-12-02T10:00:00Z");
        }

        @Bean(destroyMethod = "delete")
        PrivateDirectory privateDirectory() throws IOException {
            return new PrivateDirectory(Files.createTempDirectory("lomi-slice"));
        }

        @Bean
        DataDirectory dataDirectory(PrivateDirectory directory) {
            return new DataDirectory(directory.path());
        }
    }

    /** A temporary directory deleted with the context (after the ledger closed: beans close in reverse order). */
    record PrivateDirectory(Path path) {
        public void delete() throws IOException {
            try (Stream<Path> all = Files.walk(path)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
