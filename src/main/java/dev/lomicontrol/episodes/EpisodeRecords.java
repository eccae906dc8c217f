package dev.lomicontrol.episodes;

import java.util.List;
import org.springframework.data.domain.Limit;
import org.springframework.data.repository.ListCrudRepository;

/** The episodes' durable records (ADR 0012); writes only inside {@code Ledger.write}. */
interface EpisodeRecords extends ListCrudRepository<EpisodeRecord, String> {

    /** Records whose close was never written (the broker died), by external id. */
    List<EpisodeRecord> findByClosedAtIsNullOrderByExternalId();

    /** The most recently closed records, newest first. */
    List<EpisodeRecord> findByClosedAtIsNotNullOrderByClosedAtDescIdAsc(Limit limit);
}
