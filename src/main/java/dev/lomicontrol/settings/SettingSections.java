package dev.lomicontrol.settings;

import org.springframework.data.repository.ListCrudRepository;

/** The stored settings sections (ADR 0012); writes only inside {@code Ledger.write}. */
interface SettingSections extends ListCrudRepository<SettingSection, String> {}
