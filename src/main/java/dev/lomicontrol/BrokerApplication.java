package dev.lomicontrol;

import dev.lomicontrol.broker.BrokerLogFile;
import dev.lomicontrol.core.DataDirectory;
import dev.lomicontrol.core.UserDirectories;
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
        DataDirectory directory = DataDirectory.resolve(dataDir, System.getenv());
        springArgs.add("--lomi.data-dir=" + directory.root());
        if (springArgs.stream().noneMatch(arg -> arg.startsWith("--lomi.log.file="))) {
            springArgs.add("--lomi.log.file=" + logFile(dataDir, directory));
        }
        SpringApplication application = new SpringApplication(BrokerApplication.class);
        application.addListeners(BrokerLogFile.listener());
        application.setWebApplicationType(WebApplicationType.NONE);
        application.setBannerMode(Banner.Mode.OFF);
        application.run(springArgs.toArray(String[]::new));
    }

    /**
     * Where the broker logs besides stderr: {@code $XDG_STATE_HOME/lomi-control/broker.log} for the
     * default data directory, {@code <data-dir>/log/broker.log} for one named by --data-dir or
     * LOMI_CONTROL_HOME (so two brokers never share a log).
     */
    static java.nio.file.Path logFile(Optional<String> flag, DataDirectory directory) {
        boolean named = flag.filter(dir -> !dir.isBlank()).isPresent()
                || Optional.ofNullable(System.getenv("LOMI_CONTROL_HOME"))
                        .filter(dir -> !dir.isBlank())
                        .isPresent();
        return named
                ? directory.root().resolve("log").resolve("broker.log")
                : UserDirectories.current().state().resolve("lomi-control").resolve("broker.log");
    }
}
