package dev.lomicontrol.chat;

import dev.lomicontrol.ledger.Ledger;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Spring wiring: conversations and connections in the broker's store, replies through Spring AI's models; keys from the process's environment. */
@Configuration(proxyBeanMethods = false)
public class ChatConfiguration {

    @Bean(destroyMethod = "close")
    Chat chat(Ledger ledger, Clock clock, ChatProperties properties) {
        return Chat.open(ledger, clock, properties, new SpringAiModels(), System::getenv);
    }
}
