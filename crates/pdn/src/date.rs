//! The `Date` tag: `YYYY.MM.DD`.

/// The `Date` tag's value for a day counted from 1970-01-01 (proleptic Gregorian).
pub fn date_tag(days_since_1970: i64) -> String {
    // Days to a civil date, counting from a year that starts on 1 March so that the leap
    // day comes last.
    let z = days_since_1970 + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

/// The `Date` tag's value for a time in milliseconds since 1970.
pub fn date_tag_of_ms(ms_since_1970: i64) -> String {
    date_tag(ms_since_1970.div_euclid(86_400_000))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_become_dates() {
        assert_eq!(date_tag(0), "1970.01.01");
        assert_eq!(date_tag(19_723), "2024.01.01");
        assert_eq!(date_tag(20_786), "2026.11.29");
        assert_eq!(date_tag(11_016), "2000.02.29");
        assert_eq!(date_tag(-1), "1969.12.31");
        assert_eq!(date_tag_of_ms(86_400_000 * 20_786 + 5), "2026.11.29");
    }
}
