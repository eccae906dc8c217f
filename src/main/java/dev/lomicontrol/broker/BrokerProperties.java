package dev.lomicontrol.broker;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Broker-wide settings ({@code lomi.*}).
 *
 * @param dataDir the data directory; set by the launcher from --data-dir / LOMI_CONTROL_HOME / XDG
 */
@ConfigurationProperties("lomi")
public record BrokerProperties(String dataDir) {}
