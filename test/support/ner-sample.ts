/**
 * A hand-labelled sample for choosing and guarding the inline linker's entity recognition: chat
 * turns, first-person requests, technical notes, lists and sentences with no entity at all (where
 * every guess is a false positive). The first part was written for this project; then turns of the
 * LoCoMo and LongMemEval dev conversations (picked at random among sentences with a capital past
 * their first word, labelled by hand); then software-engineering sentences written for the
 * named-thing rules (services, projects, products, versions, repositories, datasets, flags).
 *
 * Labelling rules: every name of one specific thing is gold. Names are written without titles or
 * kinship words ("Maria", not "my sister Maria"), without a leading "the", and as the text spells
 * them ("Postgres 16"). A versioned name is gold with its version; the known technology it names
 * is gold too ("Postgres 16" → also "PostgreSQL"). Types: person, organization (companies, teams),
 * place, product (products, technologies, libraries, versioned names), system (services, APIs,
 * datasets, files, code identifiers, feature flags), project (projects, codenames, repositories),
 * work (titles of books, films, songs, artworks), date (the date expression alone: "next week").
 * Not gold: nationalities and languages, holidays outside a date, generic nouns ("the billing
 * service"), a second name the text gives as an alias of a gold one.
 */

export type NerType = 'person' | 'organization' | 'place' | 'date' | 'product' | 'system' | 'project' | 'work';

export interface NerExample {
  text: string;
  entities: Array<{ text: string; type: NerType }>;
}

const p = (text: string) => ({ text, type: 'person' as const });
const o = (text: string) => ({ text, type: 'organization' as const });
const l = (text: string) => ({ text, type: 'place' as const });
const d = (text: string) => ({ text, type: 'date' as const });
const x = (text: string) => ({ text, type: 'product' as const });
const s = (text: string) => ({ text, type: 'system' as const });
const j = (text: string) => ({ text, type: 'project' as const });
const w = (text: string) => ({ text, type: 'work' as const });

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
  {
    text: 'Tom studied physics at Stanford University before moving to Boston.',
    entities: [p('Tom'), o('Stanford University'), l('Boston')],
  },
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
  {
    text: "Melanie: That's amazing, Caroline! I painted a sunrise with my kids last weekend.",
    entities: [p('Melanie'), p('Caroline'), d('last weekend')],
  },
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
  {
    text: 'Migrated the analytics jobs from Heroku to Google Cloud in Frankfurt.',
    entities: [o('Heroku'), o('Google Cloud'), l('Frankfurt')],
  },
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
  {
    text: 'After graduating from Oxford, Hugh joined Barclays in London as an analyst.',
    entities: [l('Oxford'), p('Hugh'), o('Barclays'), l('London')],
  },
  {
    text: 'Fatima and her cousin Omar are opening a cafe in Marrakech next spring.',
    entities: [p('Fatima'), p('Omar'), l('Marrakech'), d('next spring')],
  },
  { text: 'The conference in Austin was sponsored by Tesla and Dell.', entities: [l('Austin'), o('Tesla'), o('Dell')] },
  { text: 'I met Mr. Okafor at the Nigerian embassy in Washington.', entities: [p('Okafor'), l('Washington')] },
  { text: 'Sophie said the hotel in Kyoto was booked through Expedia.', entities: [p('Sophie'), l('Kyoto'), o('Expedia')] },
  { text: 'We drove along the coast of California and stopped in Monterey.', entities: [l('California'), l('Monterey')] },
  { text: 'Leo bought a PlayStation 5 for his son on Black Friday.', entities: [p('Leo'), x('PlayStation 5'), d('Black Friday')] },
  {
    text: 'Ingrid works for the World Health Organization in Geneva.',
    entities: [p('Ingrid'), o('World Health Organization'), l('Geneva')],
  },
  { text: 'On Wednesday the team from Samsung visited our office in Seoul.', entities: [d('Wednesday'), o('Samsung'), l('Seoul')] },
  { text: 'Michael Jordan played for the Chicago Bulls.', entities: [p('Michael Jordan'), o('Chicago Bulls')] },
  { text: 'Emily mentioned that her brother Daniel lives near Lake Como.', entities: [p('Emily'), p('Daniel'), l('Lake Como')] },
  {
    text: 'My favourite author is Haruki Murakami; I reread Norwegian Wood every summer.',
    entities: [p('Haruki Murakami'), w('Norwegian Wood')],
  },
  {
    text: 'The Vatican Museums were crowded, so Lucia took us to Trastevere instead.',
    entities: [l('Vatican Museums'), p('Lucia'), l('Trastevere')],
  },
  { text: 'Yesterday Noah called from the airport in Madrid.', entities: [d('Yesterday'), p('Noah'), l('Madrid')] },

  // LoCoMo dev turns.
  {
    text: 'Joanna: Thanks, Nate! Appreciate all the help. Gonna keep trying new things. See ya later!',
    entities: [p('Joanna'), p('Nate')],
  },
  {
    text: 'John: Thanks, Maria! Meal times are always fun. Good food, laughs, and chats help us stay close.',
    entities: [p('John'), p('Maria')],
  },
  { text: 'Nate: Awesome! There are lots of things that can bring you joy without pets. What else brings you joy?', entities: [p('Nate')] },
  {
    text: "Tim: Hey John, long time no talk. On Friday, I got great news - I'm finally in the study abroad program I applied for! Next month, I'm off to Ireland for a semester.",
    entities: [p('Tim'), p('John'), d('Friday'), d('Next month'), l('Ireland')],
  },
  {
    text: 'Joanna: Yeah! Besides writing, I also enjoy reading, watching movies, and exploring nature. Anything else you enjoy doing, Nate?',
    entities: [p('Joanna'), p('Nate')],
  },
  { text: 'Caroline: Cool! What did it look like?', entities: [p('Caroline')] },
  {
    text: 'Tim: I\'m currently reading a fantasy novel called "The Name of the Wind" by Patrick Rothfuss. It\'s really good!',
    entities: [p('Tim'), w('The Name of the Wind'), p('Patrick Rothfuss')],
  },
  { text: "Melanie: I'm getting there, Caroline. Creativity and family keep me at peace.", entities: [p('Melanie'), p('Caroline')] },
  {
    text: 'Melanie: Wow, fantastic, Caroline! Bet the atmosphere was incredible. Oh yeah, we went to the beach recently. It was awesome! The kids had such a blast.',
    entities: [p('Melanie'), p('Caroline')],
  },
  {
    text: "Joanna: Hey Nate, my favorite dairy-free treat is this amazing chocolate raspberry tart. It has an almond flour crust, chocolate ganache, and fresh raspberries - it's delicious!",
    entities: [p('Joanna'), p('Nate')],
  },
  {
    text: "Caroline: Hey Melanie! That sounds great! Last weekend I joined a mentorship program for LGBTQ youth - it's really rewarding to help the community.",
    entities: [p('Caroline'), p('Melanie'), d('Last weekend')],
  },
  {
    text: "Gina: Thanks! I'm passionate about dance and fashion so combining them lets me show my creativity and share my love with others. Plus, I can add dance-inspired items to my store!",
    entities: [p('Gina')],
  },
  {
    text: 'John: "The Santa Clause" is a classic! It\'s so sweet and really captures the Christmas magic. It\'s just one of those movies that gets us all feeling festive. This was our tree last year.',
    entities: [p('John'), w('The Santa Clause'), d('Christmas'), d('last year')],
  },
  {
    text: "Tim: Edinburgh, Scotland would be great for a magical vibe. It's the birthplace of Harry Potter and has awesome history and architecture. Plus, it's a beautiful city. What do you think?",
    entities: [p('Tim'), l('Edinburgh'), l('Scotland'), w('Harry Potter')],
  },
  { text: 'Melanie: Sounds great! What kind of books you got in your library?', entities: [p('Melanie')] },
  {
    text: "Maria: Yeah John, it's super important. Taking care of yourself helps us be strong for life's tough times - I learned that the hard way last year.",
    entities: [p('Maria'), p('John'), d('last year')],
  },
  {
    text: "Nate: Thanks Jo! I picked this color because it's bright and bold - like me! I wanted to stand out from the regular options.",
    entities: [p('Nate'), p('Jo')],
  },
  {
    text: "Maria: John, that's such a great idea! It gives the pup a loving home and teaches your kids important values. If you need any help, let me know! I just started volunteering at a local dog shelter once a month.",
    entities: [p('Maria'), p('John')],
  },
  { text: 'John: Sounds like good advice! I was wondering if you have any book recommendations for my trip?', entities: [p('John')] },
  { text: "Gina: Believe in yourself. Even when it's tough, you got this! Keep going!", entities: [p('Gina')] },
  { text: 'I just watched "Little Women" and it was amazing!', entities: [w('Little Women')] },
  { text: 'Took a short trip last week to Rome to clear my mind a little.', entities: [d('last week'), l('Rome')] },
  { text: "Wow, Tim, that's an awesome book collection!", entities: [p('Tim')] },
  { text: "I'm super stoked for the Harry Potter stuff.", entities: [w('Harry Potter')] },
  {
    text: 'That beach pic you shared reminded me of a special vacation we had to California- a gorgeous sunset and an awesome night strolling the shore, creating memories together.',
    entities: [l('California')],
  },
  { text: 'I took this photo at a beautiful location called Whispering Falls.', entities: [l('Whispering Falls')] },
  { text: 'I know a bit of it myself and Spanish, it makes travel so much easier.', entities: [] },
  { text: "I'm currently considering sports brands like Nike and Under Armour.", entities: [o('Nike'), o('Under Armour')] },
  { text: 'Last Friday at dance class with a group of friends I felt it.', entities: [d('Last Friday')] },
  { text: 'I\'m currently reading "The Lean Startup" and hoping it\'ll give me tips for my biz.', entities: [w('The Lean Startup')] },
  { text: 'I won my fourth video game tournament on Friday!', entities: [d('Friday')] },
  { text: "Haven't been there yet, but I've heard great things about Universal Studios.", entities: [l('Universal Studios')] },
  {
    text: 'I\'m a fan of both classical like Bach and Mozart, as well as modern music like Ed Sheeran\'s "Perfect".',
    entities: [p('Bach'), p('Mozart'), p('Ed Sheeran'), w('Perfect')],
  },
  {
    text: 'Last August I told you about my fun time at a charity event with Harry Potter trivia.',
    entities: [d('Last August'), w('Harry Potter')],
  },
  { text: "I'm gonna stay in Galway, it's great for its arts and Irish music.", entities: [l('Galway')] },
  { text: 'I recently finished rereading "The Alchemist" - it was really inspiring.', entities: [w('The Alchemist')] },

  // LongMemEval dev turns.
  { text: "I'm thinking of spending 4 days in Paris and 3 days in Rome.", entities: [l('Paris'), l('Rome')] },
  { text: 'By the way, speaking of noodles, have you tried any good Korean restaurants in your city lately?', entities: [] },
  {
    text: 'In fact, I took a train ride to visit my family in the countryside just recently, on March 3rd, and it was a nice 2-hour journey.',
    entities: [d('March 3rd')],
  },
  { text: 'I recently met Tom, a marketing expert, and he offered to provide feedback on my marketing strategy.', entities: [p('Tom')] },
  {
    text: "I'm actually looking for a pet grooming kit because my friend Rachel borrowed mine, and I need to groom Lola soon.",
    entities: [p('Rachel'), p('Lola')],
  },
  {
    text: 'By the way, I just did an online grocery order from Instacart and had it delivered to my doorstep, and spent around $60 today.',
    entities: [o('Instacart'), d('today')],
  },
  {
    text: "I'm planning a trip to Germany and was wondering if you could recommend some good hostels in Munich.",
    entities: [l('Germany'), l('Munich')],
  },
  {
    text: 'I just finished reading three fiction novels - "The Seven Husbands of Evelyn Hugo" by Taylor Jenkins Reid, "The Silent Patient" by Alex Michaelides, and "The Nightingale" by Kristin Hannah, which I finished last weekend.',
    entities: [
      w('The Seven Husbands of Evelyn Hugo'),
      p('Taylor Jenkins Reid'),
      w('The Silent Patient'),
      p('Alex Michaelides'),
      w('The Nightingale'),
      p('Kristin Hannah'),
      d('last weekend'),
    ],
  },
  {
    text: "By the way, I have a language exchange session with my tutor Maria this week, so I want to make sure I'm prepared.",
    entities: [p('Maria'), d('this week')],
  },
  { text: "I'm thinking of visiting the Nymphenburg Palace while I'm in Munich.", entities: [l('Nymphenburg Palace'), l('Munich')] },
  {
    text: "By the way, I've been having some issues with my laptop's Wi-Fi connectivity, but I did a system update on January 28th, which seems to have fixed the problem.",
    entities: [d('January 28th')],
  },
  {
    text: 'By the way, speaking of my travels, I was just thinking about my solo trip to Europe last summer, where I spent two weeks backpacking through Italy, Switzerland, and Germany.',
    entities: [l('Europe'), d('last summer'), l('Italy'), l('Switzerland'), l('Germany')],
  },
  {
    text: 'Do you think the Les Paul is suitable for playing acoustic-like fingerpicking patterns, like the intro to "Blackbird"?',
    entities: [x('Les Paul'), w('Blackbird')],
  },
  { text: 'Can you tell me more about the significance of mummification in ancient Egyptian culture?', entities: [] },
  { text: 'And for Instagram, should I create a visual summary or a quote graphic?', entities: [x('Instagram')] },
  {
    text: "I recently got a new poster from Mondo featuring an illustration of the Hogwarts castle from Harry Potter, and I want to make sure it's displayed nicely.",
    entities: [o('Mondo'), l('Hogwarts'), w('Harry Potter')],
  },
  {
    text: 'Do you have any tips on how to write a heartfelt letter or record a video message that Emma will treasure?',
    entities: [p('Emma')],
  },
  {
    text: 'Can you tell me a bit more about the narrators, Frazer Douglas and Jonathan Davis?',
    entities: [p('Frazer Douglas'), p('Jonathan Davis')],
  },
  {
    text: 'Did you have a similar experience in Thailand when visiting popular tourist spots, or was it more relaxed since you were traveling solo and could avoid the crowds?',
    entities: [l('Thailand')],
  },
  { text: 'I\'m definitely going to add "Amistad" and "Hotel Rwanda" to my to-watch list.', entities: [w('Amistad'), w('Hotel Rwanda')] },
  {
    text: "I'm in Las Vegas, and I'd appreciate it if you could provide me with some specific recommendations for volleyball leagues or gyms in the area.",
    entities: [l('Las Vegas')],
  },
  {
    text: 'By the way, speaking of my bedroom, I recently moved the "Ethereal Dreams" painting by Emma Taylor above my bed, and it adds a nice touch to the space.',
    entities: [w('Ethereal Dreams'), p('Emma Taylor')],
  },
  {
    text: 'I think I can definitely fit in the HubSpot Content Marketing Certification into my schedule, and maybe even start with that one first.',
    entities: [x('HubSpot Content Marketing Certification')],
  },
  {
    text: 'I met some other musicians, and we jammed together for a few hours, playing classic blues songs like "Sweet Home Chicago" and "Pride and Joy".',
    entities: [w('Sweet Home Chicago'), w('Pride and Joy')],
  },
  { text: "By the way, I just got back from Joe's shop.", entities: [p('Joe')] },
  {
    text: "I think I'll choose to stay in Matsumoto, since I'm more interested in experiencing the traditional Japanese culture and history, and it's closer to the Japanese Alps Visitor Center, which I want to visit.",
    entities: [l('Matsumoto'), l('Japanese Alps Visitor Center')],
  },
  {
    text: 'I did notice that some vendors at the Spring Fling Market had similar products to mine, but their prices were slightly higher.',
    entities: [l('Spring Fling Market')],
  },
  {
    text: "I'm planning a trip to San Francisco and was wondering if you could recommend some good neighborhoods to stay in.",
    entities: [l('San Francisco')],
  },
  {
    text: "I tried it out last Tuesday evening, and it didn't turn out perfectly, but I'm planning to experiment more with that technique.",
    entities: [d('last Tuesday evening')],
  },

  // Software work: named services, projects, products, versions, repositories, datasets, flags.
  {
    text: 'Atlas, our search service, reads from Elasticsearch and is owned by Priya.',
    entities: [s('Atlas'), x('Elasticsearch'), p('Priya')],
  },
  {
    text: 'We moved the ledger-api service to Postgres 16 during the last sprint.',
    entities: [s('ledger-api'), x('Postgres 16'), x('PostgreSQL')],
  },
  { text: 'Project Halcyon is the rewrite of the mobile onboarding flow.', entities: [j('Project Halcyon')] },
  { text: 'The v2 checkout flow ships behind the `checkout_v2` feature flag.', entities: [s('v2 checkout flow'), s('checkout_v2')] },
  {
    text: 'Harbor is the internal container registry; its config lives in the platform/harbor-config repo.',
    entities: [s('Harbor'), j('platform/harbor-config')],
  },
  { text: "Nightjar, the fraud-scoring model, was retrained on last quarter's transactions.", entities: [s('Nightjar')] },
  { text: 'I asked Dmitri to review the pull request before we merge it.', entities: [p('Dmitri')] },
  { text: 'The Orion team owns the data pipeline and the Lighthouse dashboard.', entities: [o('Orion'), s('Lighthouse')] },
  { text: 'Deploys now go through Spinnaker instead of Jenkins.', entities: [x('Spinnaker'), x('Jenkins')] },
  { text: 'Upgrade Node.js and pin TypeScript 5.6 in the monorepo.', entities: [x('Node.js'), x('TypeScript 5.6'), x('TypeScript')] },
  { text: 'Our payments API is called Tollbooth and runs on Kubernetes.', entities: [s('Tollbooth'), x('Kubernetes')] },
  { text: 'The Customer Data Platform (CDP) syncs nightly with Salesforce.', entities: [s('Customer Data Platform'), o('Salesforce')] },
  { text: 'Pegasus, formerly known as Skyline, is the booking backend.', entities: [s('Pegasus')] },
  {
    text: 'The flag enable_bulk_export stays off until the Redshift migration is done.',
    entities: [s('enable_bulk_export'), x('Redshift')],
  },
  { text: 'Marta opened an issue in the acme/web-console repository about slow builds.', entities: [p('Marta'), j('acme/web-console')] },
  { text: 'We evaluate the ranking model on the MS MARCO dataset.', entities: [s('MS MARCO')] },
  { text: 'Tessa said the Quarry library handles retries better than our homegrown client.', entities: [p('Tessa'), x('Quarry')] },
  { text: 'The release of Android 15 broke push notifications in the Driftwood app.', entities: [x('Android 15'), s('Driftwood')] },
  { text: 'Gemini 1.5 Pro summarizes the incident reports for the on-call engineer.', entities: [x('Gemini 1.5 Pro')] },
  { text: 'Please rename getUserById to findUser in the accounts module.', entities: [s('getUserById'), s('findUser')] },
  {
    text: 'Next week we start the Bluebird migration off the legacy Oracle cluster.',
    entities: [d('Next week'), j('Bluebird'), o('Oracle')],
  },
  {
    text: 'Standup notes: Raj is blocked on the Vault credentials; Ana finished the Sentry alerts.',
    entities: [p('Raj'), x('Vault'), p('Ana'), x('Sentry')],
  },
  { text: 'The Helios project was paused after the budget review.', entities: [j('Helios')] },
  { text: 'Version 3.2 of the SDK dropped support for Python 3.8.', entities: [x('Python 3.8'), x('Python')] },
  { text: 'Kafka consumers in the orders-service lag by ten minutes at peak.', entities: [x('Kafka'), s('orders-service')] },
  { text: 'Can you write a migration that adds an index on the email column?', entities: [] },
  { text: 'The Monday deploy failed because the Redis cache was full.', entities: [d('Monday'), x('Redis')] },
  { text: 'Everything is green on CI; Merge when ready.', entities: [] },
  { text: 'Keep the API backward compatible, Please.', entities: [] },
  { text: 'I Think We Should Ship It On Friday.', entities: [d('Friday')] },
  { text: 'Our team uses Linear for tickets and Notion for specs.', entities: [x('Linear'), x('Notion')] },
  { text: 'Sam from the Platform team approved the Terraform change.', entities: [p('Sam'), o('Platform'), x('Terraform')] },
  { text: 'The Falcon 9 launch footage is stored in the media-archive bucket.', entities: [x('Falcon 9'), s('media-archive')] },
  { text: 'We chose SQLite for the desktop client because it needs no server.', entities: [x('SQLite')] },
  { text: 'Wren is our codename for the offline mode; keep it out of the release notes.', entities: [j('Wren')] },
  { text: 'The `retry_budget` setting in worker.yaml defaults to three.', entities: [s('retry_budget'), s('worker.yaml')] },
  { text: 'Honestly, nobody reads the changelog anyway.', entities: [] },
  { text: 'Lucía merged the fix for the Safari 17 rendering bug.', entities: [p('Lucía'), x('Safari 17')] },
  { text: 'Grafana shows the p99 latency of the Gateway service doubled after the upgrade.', entities: [x('Grafana'), s('Gateway')] },
  { text: 'My manager wants the roadmap in Confluence by Friday.', entities: [x('Confluence'), d('Friday')] },
  { text: 'Zephyr (the notification service) retries failed webhooks five times.', entities: [s('Zephyr')] },
  { text: 'We deprecated the Classic API in favour of the GraphQL gateway.', entities: [s('Classic API'), x('GraphQL')] },
  { text: 'The Apollo Router replaced our hand-written gateway in March.', entities: [x('Apollo Router'), d('March')] },
  { text: 'Thanks! That fixed it.', entities: [] },
  { text: 'OK so the build is BROKEN again, can someone look?', entities: [] },
  { text: 'Tomorrow Ingrid and Felix pair on the Mosaic design system.', entities: [d('Tomorrow'), p('Ingrid'), p('Felix'), j('Mosaic')] },
  { text: 'The Ember dataset has forty thousand labelled invoices from three vendors.', entities: [s('Ember')] },
  { text: 'We store embeddings in pgvector and query them from the recall service.', entities: [x('pgvector')] },
  // Names right after a sentence-opening imperative or greeting (#32), and the openings that name no one.
  {
    text: 'Kestrel, our payments gateway, now runs on Postgres 16 in eu-west-1. Ask Priya Nair about the migration.',
    entities: [s('Kestrel'), x('Postgres 16'), x('PostgreSQL'), p('Priya Nair')],
  },
  { text: 'Ping Tomás Ruiz when the deploy is done.', entities: [p('Tomás Ruiz')] },
  { text: 'Thanks Maria Gonzalez for the quick review!', entities: [p('Maria Gonzalez')] },
  { text: 'Hi Sam, can you check the worker logs?', entities: [p('Sam')] },
  { text: 'cc Daniel Okafor on the incident report.', entities: [p('Daniel Okafor')] },
  { text: 'Tell Ngozi Adeyemi the build is green again.', entities: [p('Ngozi Adeyemi')] },
  { text: 'Email Aisha Khan the quarterly numbers.', entities: [p('Aisha Khan')] },
  { text: 'Loop in Wei Chen before Friday.', entities: [p('Wei Chen'), d('Friday')] },
  { text: 'Check with Oksana Petrenko about the budget.', entities: [p('Oksana Petrenko')] },
  { text: 'Hello Priya, the migration finished overnight.', entities: [p('Priya')] },
  { text: 'Thank Rohan Iyer for the load test results.', entities: [p('Rohan Iyer')] },
  { text: 'Please ask Siobhan Kelleher whether the contract was signed.', entities: [p('Siobhan Kelleher')] },
  { text: 'Remind Kwame Mensah about the on-call handover.', entities: [p('Kwame Mensah')] },
  { text: 'Morning Anjali! The dashboards are back.', entities: [p('Anjali')] },
  { text: 'Message Hannah Lee about the outage.', entities: [p('Hannah Lee')] },
  { text: 'Thanks Team, great work on the launch.', entities: [] },
  { text: 'Hi All, the release notes are out.', entities: [] },
  { text: 'Welcome Screen redesign is done.', entities: [] },
  { text: 'Ask Kestrel for the settlement report; it keeps a copy of every payout.', entities: [s('Kestrel')] },
  { text: 'Ping Redis before the deploy so the cache is warm.', entities: [x('Redis')] },
  { text: 'Contact Support if the login fails twice.', entities: [] },
];
