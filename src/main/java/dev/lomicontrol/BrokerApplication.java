package dev.lomicontrol;

import dev.lomicontrol.core.DataDirectory;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The broker daemon ({@code lomi-control serve}): the ledger and, as they arrive, the resources. */
@SpringBootApplication(scanBasePackages = "dev.lomicontrol")
@ConfigurationPropertiesScan("dev.lomicontrol")
public class BrokerApplication {

    /** Starts the broker; returns once the context is up (the keep-alive thread holds the JVM). */
    public static void run(String[] args) {
        List<String> springArgs = new ArrayList<>();
        Optional<String> dataDir = Optional.empty();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--data-dir") && i + 1 < args.length) {
                dataDir = Optional.of(args[++i]);
            } else if (args[i].startsWith("--data-dir=")) {
                dataDir = Optional.of(args[i].substring("--data-dir=".length()));
            } else if (!args[i].equals("--headless")) {
                springArgs.add(args[i]);
            }
        }
        DataDirectory directory = DataDirectory.resolve(dataDir, System.getenv(), System.getProperty("user.home"));
        springArgs.add("--lomi.data-dir=" + directory.root());
        SpringApplication application = new SpringApplication(BrokerApplication.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        application.setBannerMode(Banner.Mode.OFF);
        application.run(springArgs.toArray(String[]::new));
    }
}
