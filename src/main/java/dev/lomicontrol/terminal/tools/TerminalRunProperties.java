package dev.lomicontrol.terminal.tools;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How command runs are answered ({@code lomi.terminal.run.*}; shipped defaults in
 * {@code config/application.properties}). Only the admin sets it.
 *
 * @param outputTailBytes how much of a finished command's own output its answer carries
 *                        ({@code result.output}), 0–65536 bytes of normalized text; 0 leaves it out
 */
@ConfigurationProperties("lomi.terminal.run")
public record TerminalRunProperties(@DefaultValue("8192") int outputTailBytes) {

    public static final int DEFAULT_OUTPUT_TAIL_BYTES = 8192;
    public static final int MAX_OUTPUT_TAIL_BYTES = 65_536;

    public TerminalRunProperties {
        if (outputTailBytes < 0 || outputTailBytes > MAX_OUTPUT_TAIL_BYTES) {
            throw new IllegalArgumentException("lomi.terminal.run.output-tail-bytes must be 0.." + MAX_OUTPUT_TAIL_BYTES
                    + ", was " + outputTailBytes);
        }
    }
}
