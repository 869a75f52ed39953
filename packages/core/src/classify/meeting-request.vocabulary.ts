// The shared vocabulary of the meeting-request rules (meeting-request.detector.ts):
// days, meeting words, clock times, acceptance and availability words, in seven
// languages, over folded text (lower case, no accents). Kept apart so the rule table
// stays readable; each is a regular-expression source string, not a RegExp.

export const DAYS_EN =
  '(monday|tuesday|wednesday|thursday|friday|mon|tue|tues|wed|thu|thur|thurs|fri|tomorrow|tmrw|next week|this week)';
export const DAYS_DE =
  '(montag|dienstag|mittwoch|donnerstag|freitag|morgen|nachste woche|nachsten woche|kommende woche)';
export const DAYS_FR = '(lundi|mardi|mercredi|jeudi|vendredi|demain|semaine prochaine)';
export const DAYS_ES = '(lunes|martes|miercoles|jueves|viernes|manana|semana que viene|proxima semana)';
export const DAYS_PT = '(segunda|terca|quarta|quinta|sexta|amanha|semana que vem|proxima semana)(-feira)?';
export const DAYS_IT =
  '(lunedi|martedi|mercoledi|giovedi|venerdi|domani|prossima settimana|settimana prossima)';
export const DAYS_NL =
  '((maandag|dinsdag|woensdag|donderdag|vrijdag)(ochtend|middag|avond)?|morgen|volgende week)';
export const DAY = `(${[DAYS_EN, DAYS_DE, DAYS_FR, DAYS_ES, DAYS_PT, DAYS_IT, DAYS_NL].join('|')})`;

// A call, meeting, demo or visit named in the same sentence as a day or a clock time
// ("una llamada el martes a las 11", "om 10 uur voor een gesprek") proposes to meet.
export const MEET_WORD =
  '(call|meeting|demo|walkthrough|walk-through|demonstration|demonstracao|demostracion|dimostrazione|demonstratie|vorfuhrung|belletje|visit|zoom|sparren|sentiamoci|sentirci|per telefono|por telefono|par telephone|telefonisch|papo|bate-papo|conversa|charla|chiacchierata|video ?call|phone call|telefonat|gesprach|termin|anruf|treffen|telefonieren|appel|appelons|rendez-vous|rdv|echange|reunion|visite|visio|llamada|videollamada|visita|quedar|quedamos|vernos|reunirnos|chamada|ligacao|reuniao|conversar|chiamata|telefonata|riunione|incontro|videochiamata|sopralluogo|gesprek|afspraak|belafspraak|bezoek|bellen|videocall|videokonferenz|videoconferencia|videoconferenza|videochamada|videoconferencia)';
// A day of the month offered on its own: "the 14th", "el 14", "il 14", "le 14", "am 14.",
// "dia 14", "de 14e"; not a number of people, euros, minutes or percent ("el 15 %").
export const DATE_OF_MONTH =
  '(the \\d{1,2}(st|nd|rd|th)\\b|\\b(el|il|le|dia|no dia) \\d{1,2}(?![\\d%.,:/-]| ?(%|euros?|eur|min|minut\\w*|horas|ore|heures|personas|pessoas|persone|personnes|usuarios|utenti|dias|giorni|jours|anos|anni|ans)\\b)\\b|\\b(am|der|den) \\d{1,2}\\.(?!\\d)|\\b(de|op de) \\d{1,2}e\\b)';
export const WHEN = `(${DAY}|${DATE_OF_MONTH}|\\d{1,2}([:.h]\\d\\d)? ?(uhr|uur|am|pm|h)\\b|\\b(at|um|a las|as|alle|om) \\d{1,2}\\b|\\b\\d{1,2}:\\d\\d\\b)`;

// Words that accept a proposed day or time: "Tuesday works", "me va bien", "komt goed uit".
export const SUITS =
  '(works|work for me|works for me|suits (me|us)|is fine|is good|passt (mir|uns|gut)|geht (bei mir|fur mich|gut)|(me|nous) (va|convient)|(ca|cela) (me|nous) va|(me|nos) (va|viene) bien|fica (bom|otimo)|(me|nos) serve|da (certo|pra mim)|(mi|ci) (va|sta) bene|va bene|komt (mij|me|ons) (goed|prima) uit|(past|schikt) (mij|me|ons) (goed|prima)?)';
// Available, free, has time: a person offering a slot, unless a negation stands before it.
export const AVAILABLE =
  '(free|available|dispo|disponible|disponibles|disponibilidad|disponivel|disponiveis|disponibilidade|disponibile|disponibili|beschikbaar|verfugbar|libre|libres|livre|hueco|huecos|un buco|ruimte|tijd)';
export const NOT_NEGATED =
  '(?<!\\b(not|nicht|pas|no|nao|non|niet|never|nie|ne suis pas|no estoy|nao estou|non sono|geen|keine|kein|nessun|ningun|nenhum|weinig|little) )(?<!\\b(no|nao|non|niet) (estoy|estamos|estou|sono|siamo|ben|zijn|tenho|temos|tengo|tenemos|ho|abbiamo|heb|hebben) )';
