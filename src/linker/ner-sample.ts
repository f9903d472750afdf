/**
 * A hand-labelled sample for choosing and guarding the named-entity recognizer: chat turns,
 * first-person requests, technical notes, lists and sentences with no entity at all (where every
 * guess is a false positive). Gold names are written without titles or kinship words ("Maria",
 * not "my sister Maria"); dates are the date expression alone ("next week", "March 3rd").
 * Written for this project, not drawn from any benchmark's data.
 */

export type NerType = 'person' | 'organization' | 'place' | 'date' | 'product';

export interface NerExample {
  text: string;
  entities: Array<{ text: string; type: NerType }>;
}

const p = (text: string) => ({ text, type: 'person' as const });
const o = (text: string) => ({ text, type: 'organization' as const });
const l = (text: string) => ({ text, type: 'place' as const });
const d = (text: string) => ({ text, type: 'date' as const });
const x = (text: string) => ({ text, type: 'product' as const });

export const NER_SAMPLE: readonly NerExample[] = [
  // Plain statements about people, places and organizations.
  { text: 'Alice lives in Berlin and works at Acme.', entities: [p('Alice'), l('Berlin'), o('Acme')] },
  { text: 'Bob moved to Toronto last year to join Shopify.', entities: [p('Bob'), l('Toronto'), d('last year'), o('Shopify')] },
  { text: 'My manager, Priya Raman, used to work at Microsoft in Seattle.', entities: [p('Priya Raman'), o('Microsoft'), l('Seattle')] },
  { text: 'Carlos and Elena got married in Barcelona in June 2019.', entities: [p('Carlos'), p('Elena'), l('Barcelona'), d('June 2019')] },
  { text: 'Dr. Patel recommended a physiotherapist near Camden.', entities: [p('Patel'), l('Camden')] },
  { text: 'The Red Cross sent volunteers to Haiti after the earthquake.', entities: [o('Red Cross'), l('Haiti')] },
  { text: 'Sarah Chen is the new CTO at Stripe.', entities: [p('Sarah Chen'), o('Stripe')] },
  { text: 'We visited the Louvre while we were in Paris.', entities: [l('Louvre'), l('Paris')] },
  { text: 'Tom studied physics at Stanford University before moving to Boston.', entities: [p('Tom'), o('Stanford University'), l('Boston')] },
  { text: 'Grandma Rose still lives in a small village outside Dublin.', entities: [p('Rose'), l('Dublin')] },
  { text: 'Netflix and Amazon both bid on the film rights.', entities: [o('Netflix'), o('Amazon')] },
  { text: 'Kenji flew from Tokyo to Sydney on Friday.', entities: [p('Kenji'), l('Tokyo'), l('Sydney'), d('Friday')] },
  { text: 'The United Nations held its climate summit in Glasgow.', entities: [o('United Nations'), l('Glasgow')] },
  { text: 'Anna Kowalski runs a bakery in Krakow with her brother Piotr.', entities: [p('Anna Kowalski'), l('Krakow'), p('Piotr')] },

  // First-person requests and plans.
  { text: "I'm planning a trip to Lisbon with my sister Maria next week.", entities: [l('Lisbon'), p('Maria'), d('next week')] },
  { text: 'Remind me to call David about the lease on Monday.', entities: [p('David'), d('Monday')] },
  { text: 'Can you book a table for four at a restaurant in Rome for Saturday?', entities: [l('Rome'), d('Saturday')] },
  { text: 'I prefer window seats when I fly with Lufthansa.', entities: [o('Lufthansa')] },
  { text: 'My daughter Emma starts school in September.', entities: [p('Emma'), d('September')] },
  { text: 'Please draft an email to Jennifer at Deloitte about the audit.', entities: [p('Jennifer'), o('Deloitte')] },
  { text: "I've been learning Spanish for my move to Mexico City.", entities: [l('Mexico City')] },
  { text: 'Next month I want to run the half marathon in Amsterdam.', entities: [d('Next month'), l('Amsterdam')] },
  { text: 'I bought a new Kindle because my old one broke.', entities: [x('Kindle')] },
  { text: 'We are flying to Chicago on December 12 to see my parents.', entities: [l('Chicago'), d('December 12')] },
  { text: 'My husband Mark is allergic to peanuts.', entities: [p('Mark')] },
  { text: 'I switched from my iPhone to a Pixel 8 last month.', entities: [x('iPhone'), x('Pixel 8'), d('last month')] },

  // Chat turns.
  { text: 'Caroline: I went to a support group yesterday and it was really powerful.', entities: [p('Caroline'), d('yesterday')] },
  { text: "Melanie: That's amazing, Caroline! I painted a sunrise with my kids last weekend.", entities: [p('Melanie'), p('Caroline'), d('last weekend')] },
  { text: 'Jon: Lost my job at the bank, so I am opening a dance studio.', entities: [p('Jon')] },
  { text: 'Gina: Nice! I launched my clothing store online last Tuesday.', entities: [p('Gina'), d('last Tuesday')] },
  { text: "Nate: I'm heading to Denver for a gaming tournament this weekend.", entities: [p('Nate'), l('Denver'), d('this weekend')] },
  { text: 'Joanna: My screenplay got picked up by a producer in Los Angeles!', entities: [p('Joanna'), l('Los Angeles')] },
  { text: 'Audrey: Andrew and I adopted another dog from the shelter.', entities: [p('Audrey'), p('Andrew')] },
  { text: 'user: what did Hannah say about the wedding in Florence?', entities: [p('Hannah'), l('Florence')] },
  { text: 'ok sounds good, see you at 5', entities: [] },
  { text: 'lol yeah that movie was great, thanks for the tip', entities: [] },

  // Technical notes.
  { text: 'Deployed the billing service to AWS eu-west-1 for Acme Corp.', entities: [o('AWS'), o('Acme Corp')] },
  { text: 'Jamie reviewed the pull request and merged it on 3 March 2024.', entities: [p('Jamie'), d('3 March 2024')] },
  { text: 'The outage was caused by an expired certificate; Oracle support confirmed it.', entities: [o('Oracle')] },
  { text: 'Migrated the analytics jobs from Heroku to Google Cloud in Frankfurt.', entities: [o('Heroku'), o('Google Cloud'), l('Frankfurt')] },
  { text: 'Ravi from Atlassian asked for the Jira export by Thursday.', entities: [p('Ravi'), o('Atlassian'), x('Jira'), d('Thursday')] },
  { text: 'Restarted the worker pool after the memory leak; latency is back to normal.', entities: [] },
  { text: 'The staging cluster in Singapore ran out of disk space overnight.', entities: [l('Singapore')] },
  { text: 'Signed the contract with Salesforce on January 15, 2025.', entities: [o('Salesforce'), d('January 15, 2025')] },
  { text: 'Fixed the flaky login test; it failed when the clock crossed midnight.', entities: [] },
  { text: 'Lena owns the payments API and Marco owns the mobile app.', entities: [p('Lena'), p('Marco')] },
  { text: 'Our Slack workspace was migrated to the enterprise plan by IBM consultants.', entities: [x('Slack'), o('IBM')] },
  { text: 'Rolled back release 2.4 because checkout broke for users in Brazil.', entities: [l('Brazil')] },
  { text: 'Meeting notes: Olivia will present the roadmap to the board in London.', entities: [p('Olivia'), l('London')] },

  // Sentences whose capitals are not names.
  { text: 'Nothing changed after the last deploy, so I will check the logs again.', entities: [] },
  { text: 'Happy birthday! Hope you have a wonderful day.', entities: [] },
  { text: 'Great news: the tests pass and the build is green.', entities: [] },
  { text: 'Honestly I think we should wait until the numbers come in.', entities: [] },
  { text: 'Summer is my favourite season because of the long evenings.', entities: [] },
  { text: 'Please Remember To Water The Plants Before Leaving.', entities: [] },
  { text: 'Quick question: does anyone know where the spare keys are?', entities: [] },
  { text: 'Buy milk, eggs, bread and coffee.', entities: [] },

  // Mixed and longer turns.
  { text: 'After graduating from Oxford, Hugh joined Barclays in London as an analyst.', entities: [l('Oxford'), p('Hugh'), o('Barclays'), l('London')] },
  { text: 'Fatima and her cousin Omar are opening a cafe in Marrakech next spring.', entities: [p('Fatima'), p('Omar'), l('Marrakech'), d('next spring')] },
  { text: 'The conference in Austin was sponsored by Tesla and Dell.', entities: [l('Austin'), o('Tesla'), o('Dell')] },
  { text: 'I met Mr. Okafor at the Nigerian embassy in Washington.', entities: [p('Okafor'), l('Washington')] },
  { text: 'Sophie said the hotel in Kyoto was booked through Expedia.', entities: [p('Sophie'), l('Kyoto'), o('Expedia')] },
  { text: 'We drove along the coast of California and stopped in Monterey.', entities: [l('California'), l('Monterey')] },
  { text: 'Leo bought a PlayStation 5 for his son on Black Friday.', entities: [p('Leo'), x('PlayStation 5'), d('Black Friday')] },
  { text: 'Ingrid works for the World Health Organization in Geneva.', entities: [p('Ingrid'), o('World Health Organization'), l('Geneva')] },
  { text: 'On Wednesday the team from Samsung visited our office in Seoul.', entities: [d('Wednesday'), o('Samsung'), l('Seoul')] },
  { text: 'Michael Jordan played for the Chicago Bulls.', entities: [p('Michael Jordan'), o('Chicago Bulls')] },
  { text: 'Emily mentioned that her brother Daniel lives near Lake Como.', entities: [p('Emily'), p('Daniel'), l('Lake Como')] },
  { text: 'My favourite author is Haruki Murakami; I reread Norwegian Wood every summer.', entities: [p('Haruki Murakami')] },
  { text: 'The Vatican Museums were crowded, so Lucia took us to Trastevere instead.', entities: [l('Vatican Museums'), p('Lucia'), l('Trastevere')] },
  { text: 'Yesterday Noah called from the airport in Madrid.', entities: [d('Yesterday'), p('Noah'), l('Madrid')] },
];
