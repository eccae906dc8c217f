package dev.lomicontrol.chat;

import java.util.List;
import org.springframework.data.repository.ListCrudRepository;

/** The admin's stored model connections (ADR 0012); writes only inside {@code Ledger.write}. */
interface ConnectionRecords extends ListCrudRepository<ConnectionRecord, String> {

    List<ConnectionRecord> findAllByOrderById();
}
