package dev.lomicontrol.console;

import dev.lomicontrol.BrokerApplication;
import dev.lomicontrol.testing.MutableClock;
import java.time.Clock;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.test.annotation.DirtiesContext;

/**
 * One real broker context (every bean, a fresh data directory, a clock the tests move, the admin
 * socket on) per test class ({@link DirtiesContext} after each class: no class sees another's
 * receipts or clock, whatever the order); lines run through the real
 * {@link ConsoleExecutor} for a caller whose cwd and home are this test's temp directories.
 */
@SpringBootTest(
        classes = {BrokerApplication.class, ConsoleTestSupport.TestClock.class},
        properties = {
            "lomi.data-dir=${java.io.tmpdir}/lomi-console-tests-${random.uuid}",
            "spring.main.allow-bean-definition-overriding=true"
        })
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
abstract class ConsoleTestSupport extends ConsoleLines {

    @TestConfiguration
    static class TestClock {
        @Bean
        @Primary
        MutableClock testClock() {
            return new MutableClock(Clock.systemUTC().instant());
        }
    }
}
