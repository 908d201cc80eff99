// The few functions of ICU's collation and locale APIs (ucol.h, uloc.h) that the `collator` expression uses, as the
// ICU inside Swift's Foundation on Linux exports them (lib_FoundationICU, every name prefixed with
// `swift_`). That ICU carries the collation data of every locale, so `collator` compares in a
// locale's tailoring (German search collation, Swedish å ä ö after z) exactly as the style spec's
// reference does through JavaScript's Intl.Collator, which is ICU too.
#ifndef CICU_COLLATION_H
#define CICU_COLLATION_H

#include <stdint.h>

typedef struct UCollator UCollator;

/// UCollationStrength and UColAttribute values of ucol.h.
enum {
    MAPSIM_UCOL_PRIMARY = 0,
    MAPSIM_UCOL_SECONDARY = 1,
    MAPSIM_UCOL_TERTIARY = 2,
    MAPSIM_UCOL_CASE_LEVEL = 3,
    MAPSIM_UCOL_NORMALIZATION_MODE = 4,
    MAPSIM_UCOL_ON = 17,
};

#if defined(__linux__)
UCollator *swift_ucol_open(const char *locale, int32_t *status);
void swift_ucol_close(UCollator *collator);
void swift_ucol_setStrength(UCollator *collator, int32_t strength);
void swift_ucol_setAttribute(UCollator *collator, int32_t attribute, int32_t value, int32_t *status);
int32_t swift_ucol_strcoll(const UCollator *collator, const uint16_t *source, int32_t sourceLength, const uint16_t *target,
                           int32_t targetLength);
int32_t swift_ucol_countAvailable(void);
const char *swift_ucol_getAvailable(int32_t index);

typedef struct UEnumeration UEnumeration;
UEnumeration *swift_ucol_getKeywordValuesForLocale(const char *key, const char *locale, int8_t commonlyUsed, int32_t *status);
const char *swift_uenum_next(UEnumeration *enumeration, int32_t *length, int32_t *status);
void swift_uenum_close(UEnumeration *enumeration);

int32_t swift_uloc_forLanguageTag(const char *tag, char *localeID, int32_t capacity, int32_t *parsedLength, int32_t *status);
int32_t swift_uloc_toLanguageTag(const char *localeID, char *tag, int32_t capacity, int8_t strict, int32_t *status);
int32_t swift_uloc_canonicalize(const char *localeID, char *name, int32_t capacity, int32_t *status);
#endif

#endif
