package dev.lomicontrol.broker;

import dev.lomicontrol.core.DataDirectory;
import java.nio.file.Path;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Process-wide beans: the clock and the data directory. */
@Configuration(proxyBeanMethods = false)
public class BrokerConfiguration {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    DataDirectory dataDirectory(BrokerProperties properties) {
        return new DataDirectory(Path.of(properties.dataDir()));
    }
}
