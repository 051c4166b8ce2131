//! `clickwrap-server demo`: a tenant, an app and a published, enabled template in every launch
//! language, made once and reused on every start. Its App Key and operator token are kept sealed
//! with the master key (elsewhere only their hashes are stored), so every start shows the same
//! ones while they work; the template is brought up to date when this build's agreement differs
//! from its latest version.

use std::collections::{BTreeMap, BTreeSet};

use clickwrap_domain::apps::models::AppKeyOverlap;
use clickwrap_domain::apps::service::NewApp;
use clickwrap_domain::content::sanitize::sanitize;
use clickwrap_domain::service::ClickwrapService;
use clickwrap_domain::templates::customizations::Customizations;
use clickwrap_domain::templates::models::LocalizedContent;
use clickwrap_domain::templates::service::{NewTemplate, PublishVersionError};
use clickwrap_domain::templates::versioning::{VersionKind, VersionNumber};
use clickwrap_domain::tenants::models::{Admin, OperatorRole};
use clickwrap_domain::{Language, Name, Tag, TemplateId};
use clickwrap_postgres::database::DatabaseUrl;
use clickwrap_postgres::{DemoInstallation, PgStore, lock_demo_setup};

/// What the demo prints and its page needs.
#[derive(Debug, Clone)]
pub(crate) struct DemoCredentials {
    pub(crate) installation: DemoInstallation,
    pub(crate) app_key: String,
    pub(crate) operator_token: String,
}

#[derive(Debug, thiserror::Error)]
#[error("setting up the demo failed: {0}")]
pub(crate) struct DemoError(String);

fn failed(error: impl std::fmt::Display) -> DemoError {
    DemoError(error.to_string())
}

/// One language's demo agreement. Every language fills the same parts, so every language has the
/// same structure: a title, a welcome that shows placeholder filling (`{{fullName}}`), ten numbered
/// sections (the third with a list) and a contact line.
struct Agreement {
    language: Language,
    title: &'static str,
    welcome: &'static str,
    sections: [(&'static str, &'static str); 10],
    /// The list of what the acceptable-use section forbids.
    forbidden: [&'static str; 3],
    /// The contact line's text before and after the address.
    contact: (&'static str, &'static str),
}

/// The section (by index) that the `forbidden` list follows.
const FORBIDDEN_AFTER: usize = 2;
const CONTACT_ADDRESS: &str = "legal@example.com";

impl Agreement {
    fn html(&self) -> String {
        let mut html = format!("<h1>{}</h1><p>{}</p>", self.title, self.welcome);
        for (index, (heading, text)) in self.sections.iter().enumerate() {
            html.push_str(&format!("<h2>{}. {heading}</h2><p>{text}</p>", index + 1));
            if index == FORBIDDEN_AFTER {
                let items: String = self.forbidden.iter().map(|item| format!("<li>{item}</li>")).collect();
                html.push_str(&format!("<ul>{items}</ul>"));
            }
        }
        let (before, after) = self.contact;
        html.push_str(&format!("<p>{before}<a href=\"mailto:{CONTACT_ADDRESS}\">{CONTACT_ADDRESS}</a>{after}</p>"));
        html
    }
}

/// The demo's terms of service in every launch language. Long enough that a desktop dialog has to
/// be scrolled before Accept is enabled, which is what the demo is there to show.
const AGREEMENTS: [Agreement; 7] = [
    Agreement {
        language: Language::English,
        title: "Terms of Service",
        welcome: "Welcome, {{fullName}}. These terms govern your use of the demo service of Example Ltd. Please read \
                  them to the end before you decide.",
        sections: [
            (
                "About these terms",
                "These terms are an agreement between you and Example Ltd (“we”). By selecting Accept you agree to \
                 them. If you do not agree, select Decline and do not use the service.",
            ),
            (
                "Your account",
                "Keep your sign-in details secret. You are responsible for what is done with your account, so tell \
                 us at once if you think someone else has used it.",
            ),
            (
                "Acceptable use",
                "Use the service lawfully and only for its intended purpose. In particular, you must not:",
            ),
            (
                "Your content",
                "What you upload remains yours. You allow us to store and process it only as far as we need to in \
                 order to provide the service to you.",
            ),
            (
                "Privacy and your consent",
                "We process personal data as described in our privacy notice. When you accept or decline these \
                 terms, we record the text you were shown, the time and technical details of your device, and issue \
                 a signed certificate as evidence.",
            ),
            (
                "Fees",
                "The demo service is free of charge. Should we introduce paid features, we will tell you the price \
                 before you can use them.",
            ),
            (
                "Changes",
                "We may improve or change the service. If we change these terms in a way that matters to you, we \
                 will ask you to accept the new version before you continue.",
            ),
            (
                "Liability",
                "We provide the demo service as it is, without warranties. Nothing in these terms limits any \
                 liability that cannot be limited by law.",
            ),
            (
                "Ending the agreement",
                "You may stop using the service at any time. We may suspend or end your access if you seriously or \
                 repeatedly break these terms.",
            ),
            (
                "Governing law and contact",
                "These terms are governed by the law of the country in which Example Ltd has its registered office.",
            ),
        ],
        forbidden: [
            "break the law or infringe the rights of others;",
            "try to access systems or data you are not authorised to use;",
            "disrupt the service or put an unreasonable load on it.",
        ],
        contact: ("Questions about these terms? Write to ", "."),
    },
    Agreement {
        language: Language::German,
        title: "Nutzungsbedingungen",
        welcome: "Willkommen, {{fullName}}. Diese Bedingungen regeln Ihre Nutzung des Demodienstes der Example Ltd. \
                  Bitte lesen Sie sie bis zum Ende, bevor Sie sich entscheiden.",
        sections: [
            (
                "Über diese Bedingungen",
                "Diese Bedingungen sind eine Vereinbarung zwischen Ihnen und der Example Ltd („wir“). Mit \
                 „Akzeptieren“ stimmen Sie ihnen zu. Wenn Sie nicht zustimmen, wählen Sie „Ablehnen“ und nutzen Sie \
                 den Dienst nicht.",
            ),
            (
                "Ihr Konto",
                "Halten Sie Ihre Anmeldedaten geheim. Sie sind für alles verantwortlich, was mit Ihrem Konto \
                 geschieht; teilen Sie uns daher sofort mit, wenn Sie vermuten, dass jemand anderes es benutzt hat.",
            ),
            (
                "Zulässige Nutzung",
                "Nutzen Sie den Dienst rechtmäßig und nur für seinen vorgesehenen Zweck. Insbesondere dürfen Sie \
                 nicht:",
            ),
            (
                "Ihre Inhalte",
                "Was Sie hochladen, gehört weiterhin Ihnen. Sie erlauben uns, es nur so weit zu speichern und zu \
                 verarbeiten, wie es nötig ist, um Ihnen den Dienst bereitzustellen.",
            ),
            (
                "Datenschutz und Ihre Zustimmung",
                "Wir verarbeiten personenbezogene Daten wie in unserer Datenschutzerklärung beschrieben. Wenn Sie \
                 diese Bedingungen akzeptieren oder ablehnen, halten wir den Ihnen angezeigten Text, den Zeitpunkt \
                 und technische Angaben zu Ihrem Gerät fest und stellen als Nachweis ein signiertes Zertifikat aus.",
            ),
            (
                "Entgelte",
                "Der Demodienst ist kostenlos. Sollten wir kostenpflichtige Funktionen einführen, nennen wir Ihnen \
                 den Preis, bevor Sie sie nutzen können.",
            ),
            (
                "Änderungen",
                "Wir können den Dienst verbessern oder ändern. Ändern wir diese Bedingungen in einer für Sie \
                 wesentlichen Weise, bitten wir Sie, der neuen Fassung zuzustimmen, bevor Sie fortfahren.",
            ),
            (
                "Haftung",
                "Wir stellen den Demodienst so bereit, wie er ist, ohne Gewährleistung. Nichts in diesen \
                 Bedingungen beschränkt eine Haftung, die gesetzlich nicht beschränkt werden kann.",
            ),
            (
                "Beendigung",
                "Sie können die Nutzung des Dienstes jederzeit beenden. Wir können Ihren Zugang sperren oder \
                 beenden, wenn Sie schwerwiegend oder wiederholt gegen diese Bedingungen verstoßen.",
            ),
            (
                "Anwendbares Recht und Kontakt",
                "Für diese Bedingungen gilt das Recht des Landes, in dem die Example Ltd ihren eingetragenen Sitz \
                 hat.",
            ),
        ],
        forbidden: [
            "gegen Gesetze oder die Rechte anderer verstoßen;",
            "versuchen, auf Systeme oder Daten zuzugreifen, für die Sie keine Berechtigung haben;",
            "den Dienst stören oder unangemessen belasten.",
        ],
        contact: ("Fragen zu diesen Bedingungen? Schreiben Sie an ", "."),
    },
    Agreement {
        language: Language::French,
        title: "Conditions d’utilisation",
        welcome: "Bienvenue, {{fullName}}. Ces conditions régissent votre utilisation du service de démonstration \
                  d’Example Ltd. Veuillez les lire jusqu’au bout avant de décider.",
        sections: [
            (
                "À propos de ces conditions",
                "Ces conditions constituent un accord entre vous et Example Ltd («\u{a0}nous\u{a0}»). En choisissant \
                 «\u{a0}Accepter\u{a0}», vous les acceptez. Si vous n’êtes pas d’accord, choisissez \
                 «\u{a0}Refuser\u{a0}» et n’utilisez pas le service.",
            ),
            (
                "Votre compte",
                "Gardez vos identifiants secrets. Vous êtes responsable de tout ce qui est fait avec votre \
                 compte\u{a0}; prévenez-nous immédiatement si vous pensez que quelqu’un d’autre l’a utilisé.",
            ),
            (
                "Utilisation autorisée",
                "Utilisez le service de manière légale et uniquement pour l’usage prévu. En particulier, vous ne \
                 devez pas\u{a0}:",
            ),
            (
                "Vos contenus",
                "Ce que vous téléversez vous appartient. Vous nous autorisez à le stocker et à le traiter uniquement \
                 dans la mesure nécessaire pour vous fournir le service.",
            ),
            (
                "Protection des données et consentement",
                "Nous traitons les données personnelles comme décrit dans notre politique de confidentialité. \
                 Lorsque vous acceptez ou refusez ces conditions, nous enregistrons le texte qui vous a été présenté, \
                 l’heure et des informations techniques sur votre appareil, et nous émettons un certificat signé \
                 comme preuve.",
            ),
            (
                "Tarifs",
                "Le service de démonstration est gratuit. Si nous introduisons des fonctions payantes, nous vous en \
                 indiquerons le prix avant que vous puissiez les utiliser.",
            ),
            (
                "Modifications",
                "Nous pouvons améliorer ou modifier le service. Si nous modifions ces conditions d’une manière \
                 importante pour vous, nous vous demanderons d’accepter la nouvelle version avant de continuer.",
            ),
            (
                "Responsabilité",
                "Nous fournissons le service de démonstration en l’état, sans garantie. Rien dans ces conditions ne \
                 limite une responsabilité qui ne peut être limitée par la loi.",
            ),
            (
                "Fin de l’accord",
                "Vous pouvez cesser d’utiliser le service à tout moment. Nous pouvons suspendre ou supprimer votre \
                 accès si vous enfreignez ces conditions de manière grave ou répétée.",
            ),
            (
                "Droit applicable et contact",
                "Ces conditions sont régies par le droit du pays où Example Ltd a son siège social.",
            ),
        ],
        forbidden: [
            "enfreindre la loi ou les droits d’autrui\u{a0};",
            "tenter d’accéder à des systèmes ou à des données auxquels vous n’êtes pas autorisé à accéder\u{a0};",
            "perturber le service ou lui imposer une charge déraisonnable.",
        ],
        contact: ("Des questions sur ces conditions\u{a0}? Écrivez à ", "."),
    },
    Agreement {
        language: Language::Spanish,
        title: "Condiciones del servicio",
        welcome: "Bienvenido, {{fullName}}. Estas condiciones regulan el uso que usted hace del servicio de \
                  demostración de Example Ltd. Léalas hasta el final antes de decidir.",
        sections: [
            (
                "Sobre estas condiciones",
                "Estas condiciones son un acuerdo entre usted y Example Ltd («nosotros»). Al elegir «Aceptar», usted \
                 las acepta. Si no está de acuerdo, elija «Rechazar» y no utilice el servicio.",
            ),
            (
                "Su cuenta",
                "Mantenga en secreto sus datos de acceso. Usted es responsable de todo lo que se haga con su cuenta; \
                 avísenos de inmediato si cree que otra persona la ha utilizado.",
            ),
            (
                "Uso aceptable",
                "Utilice el servicio de forma lícita y solo para el fin previsto. En particular, no debe:",
            ),
            (
                "Su contenido",
                "Lo que usted sube sigue siendo suyo. Nos permite almacenarlo y tratarlo solo en la medida necesaria \
                 para prestarle el servicio.",
            ),
            (
                "Privacidad y su consentimiento",
                "Tratamos los datos personales tal como se describe en nuestro aviso de privacidad. Cuando usted \
                 acepta o rechaza estas condiciones, registramos el texto que se le mostró, la hora y datos técnicos \
                 de su dispositivo, y emitimos un certificado firmado como prueba.",
            ),
            (
                "Precio",
                "El servicio de demostración es gratuito. Si introducimos funciones de pago, le indicaremos el precio \
                 antes de que pueda utilizarlas.",
            ),
            (
                "Cambios",
                "Podemos mejorar o modificar el servicio. Si cambiamos estas condiciones de un modo que le afecte, le \
                 pediremos que acepte la nueva versión antes de continuar.",
            ),
            (
                "Responsabilidad",
                "Prestamos el servicio de demostración tal cual, sin garantías. Nada de lo dispuesto en estas \
                 condiciones limita la responsabilidad que no pueda limitarse por ley.",
            ),
            (
                "Terminación",
                "Puede dejar de utilizar el servicio en cualquier momento. Podemos suspender o cancelar su acceso si \
                 incumple estas condiciones de forma grave o reiterada.",
            ),
            (
                "Ley aplicable y contacto",
                "Estas condiciones se rigen por la ley del país en el que Example Ltd tiene su domicilio social.",
            ),
        ],
        forbidden: [
            "infringir la ley ni los derechos de terceros;",
            "intentar acceder a sistemas o datos para los que no tenga autorización;",
            "perturbar el servicio ni someterlo a una carga excesiva.",
        ],
        contact: ("¿Tiene preguntas sobre estas condiciones? Escriba a ", "."),
    },
    Agreement {
        language: Language::Chinese,
        title: "服务条款",
        welcome: "欢迎您，{{fullName}}。本条款适用于您对 Example Ltd 演示服务的使用。请在作出决定之前完整阅读本条款。",
        sections: [
            (
                "关于本条款",
                "本条款是您与 Example Ltd（“我们”）之间的协议。选择“接受”即表示您同意本条款。如果您不同意，请选择“拒绝”，并且不要使用本服务。",
            ),
            (
                "您的账户",
                "请妥善保管您的登录信息。您须对通过您的账户进行的一切操作负责；如果您认为他人使用了您的账户，请立即通知我们。",
            ),
            ("合理使用", "请合法使用本服务，且仅用于其预定用途。特别是，您不得："),
            ("您的内容", "您上传的内容仍归您所有。您允许我们仅在为您提供服务所必需的范围内存储和处理这些内容。"),
            (
                "隐私与您的同意",
                "我们按照隐私声明中的说明处理个人数据。当您接受或拒绝本条款时，我们会记录向您显示的文本、时间以及您设备的技术信息，并签发一份已签名的证书作为证据。",
            ),
            ("费用", "演示服务免费提供。如果我们推出付费功能，会在您使用之前告知价格。"),
            (
                "变更",
                "我们可能会改进或更改本服务。如果我们以对您有重要影响的方式修改本条款，会在您继续使用之前请您接受新版本。",
            ),
            ("责任", "我们按现状提供演示服务，不作任何保证。本条款中的任何内容均不限制依法不得限制的责任。"),
            ("协议的终止", "您可以随时停止使用本服务。如果您严重或多次违反本条款，我们可以暂停或终止您的访问权限。"),
            ("适用法律与联系方式", "本条款受 Example Ltd 注册办事处所在国家的法律管辖。"),
        ],
        forbidden: [
            "违反法律或侵犯他人的权利；",
            "试图访问您无权使用的系统或数据；",
            "干扰本服务或使其承受不合理的负载。",
        ],
        contact: ("对本条款有疑问？请写信至 ", "。"),
    },
    Agreement {
        language: Language::Hindi,
        title: "सेवा की शर्तें",
        welcome: "स्वागत है, {{fullName}}। ये शर्तें Example Ltd की डेमो सेवा के आपके उपयोग को नियंत्रित करती हैं। कृपया \
                  निर्णय लेने से पहले इन्हें अंत तक पढ़ें।",
        sections: [
            (
                "इन शर्तों के बारे में",
                "ये शर्तें आपके और Example Ltd (“हम”) के बीच एक समझौता हैं। “स्वीकार करें” चुनकर आप इनसे सहमत होते हैं। \
                 यदि आप सहमत नहीं हैं, तो “अस्वीकार करें” चुनें और सेवा का उपयोग न करें।",
            ),
            (
                "आपका खाता",
                "अपनी साइन-इन जानकारी गोपनीय रखें। आपके खाते से किए गए हर काम के लिए आप ज़िम्मेदार हैं, इसलिए यदि आपको \
                 लगता है कि किसी और ने इसका उपयोग किया है, तो हमें तुरंत बताएँ।",
            ),
            (
                "स्वीकार्य उपयोग",
                "सेवा का उपयोग कानूनी रूप से और केवल उसके निर्धारित उद्देश्य के लिए करें। विशेष रूप से, आप ये काम नहीं \
                 करेंगे:",
            ),
            (
                "आपकी सामग्री",
                "आप जो कुछ अपलोड करते हैं, वह आपका ही रहता है। आप हमें इसे केवल उतना संग्रहीत और संसाधित करने की अनुमति \
                 देते हैं जितना आपको सेवा प्रदान करने के लिए आवश्यक है।",
            ),
            (
                "गोपनीयता और आपकी सहमति",
                "हम व्यक्तिगत डेटा को अपनी गोपनीयता सूचना में बताए गए तरीके से संसाधित करते हैं। जब आप इन शर्तों को \
                 स्वीकार या अस्वीकार करते हैं, तो हम आपको दिखाया गया पाठ, समय और आपके डिवाइस की तकनीकी जानकारी दर्ज करते \
                 हैं, और प्रमाण के रूप में एक हस्ताक्षरित प्रमाणपत्र जारी करते हैं।",
            ),
            (
                "शुल्क",
                "डेमो सेवा निःशुल्क है। यदि हम सशुल्क सुविधाएँ शुरू करते हैं, तो उनका उपयोग करने से पहले हम आपको उनकी \
                 कीमत बताएँगे।",
            ),
            (
                "परिवर्तन",
                "हम सेवा में सुधार या बदलाव कर सकते हैं। यदि हम इन शर्तों को ऐसे तरीके से बदलते हैं जो आपके लिए \
                 महत्वपूर्ण है, तो आगे बढ़ने से पहले हम आपसे नए संस्करण को स्वीकार करने के लिए कहेंगे।",
            ),
            (
                "दायित्व",
                "हम डेमो सेवा को जैसी है वैसी ही, बिना किसी वारंटी के प्रदान करते हैं। इन शर्तों की कोई भी बात उस दायित्व \
                 को सीमित नहीं करती जिसे कानून द्वारा सीमित नहीं किया जा सकता।",
            ),
            (
                "समझौते की समाप्ति",
                "आप किसी भी समय सेवा का उपयोग बंद कर सकते हैं। यदि आप इन शर्तों का गंभीर या बार-बार उल्लंघन करते हैं, तो \
                 हम आपकी पहुँच निलंबित या समाप्त कर सकते हैं।",
            ),
            ("लागू कानून और संपर्क", "ये शर्तें उस देश के कानून द्वारा शासित होती हैं जहाँ Example Ltd का पंजीकृत कार्यालय है।"),
        ],
        forbidden: [
            "कानून या दूसरों के अधिकारों का उल्लंघन करना;",
            "ऐसे सिस्टम या डेटा तक पहुँचने का प्रयास करना जिनके उपयोग की आपको अनुमति नहीं है;",
            "सेवा में बाधा डालना या उस पर अनुचित भार डालना।",
        ],
        contact: ("इन शर्तों के बारे में कोई प्रश्न? ", " पर लिखें।"),
    },
    Agreement {
        language: Language::Russian,
        title: "Условия использования",
        welcome: "Добро пожаловать, {{fullName}}. Настоящие условия регулируют использование вами \
                  демонстрационного сервиса Example Ltd. Пожалуйста, прочитайте их до конца, прежде чем принять \
                  решение.",
        sections: [
            (
                "Об этих условиях",
                "Настоящие условия являются соглашением между вами и Example Ltd («мы»). Выбирая «Принять», вы \
                 соглашаетесь с ними. Если вы не согласны, выберите «Отклонить» и не пользуйтесь сервисом.",
            ),
            (
                "Ваша учётная запись",
                "Храните данные для входа в тайне. Вы отвечаете за всё, что совершается с использованием вашей \
                 учётной записи, поэтому сразу сообщите нам, если считаете, что ею воспользовался кто-то другой.",
            ),
            (
                "Допустимое использование",
                "Используйте сервис законно и только по назначению. В частности, запрещается:",
            ),
            (
                "Ваши материалы",
                "Всё, что вы загружаете, остаётся вашим. Вы разрешаете нам хранить и обрабатывать эти материалы лишь \
                 в той мере, в какой это необходимо для предоставления вам сервиса.",
            ),
            (
                "Конфиденциальность и ваше согласие",
                "Мы обрабатываем персональные данные так, как описано в нашем уведомлении о конфиденциальности. \
                 Когда вы принимаете или отклоняете настоящие условия, мы сохраняем показанный вам текст, время и \
                 технические сведения о вашем устройстве и выдаём подписанный сертификат в качестве доказательства.",
            ),
            (
                "Плата",
                "Демонстрационный сервис бесплатен. Если мы введём платные функции, мы сообщим вам их стоимость до \
                 того, как вы сможете ими воспользоваться.",
            ),
            (
                "Изменения",
                "Мы можем улучшать или изменять сервис. Если мы изменим настоящие условия существенным для вас \
                 образом, мы попросим вас принять новую редакцию, прежде чем вы продолжите.",
            ),
            (
                "Ответственность",
                "Мы предоставляем демонстрационный сервис «как есть», без каких-либо гарантий. Ничто в настоящих \
                 условиях не ограничивает ответственность, которая не может быть ограничена по закону.",
            ),
            (
                "Прекращение соглашения",
                "Вы можете прекратить пользоваться сервисом в любое время. Мы можем приостановить или прекратить ваш \
                 доступ, если вы грубо или неоднократно нарушаете настоящие условия.",
            ),
            (
                "Применимое право и контакты",
                "Настоящие условия регулируются правом страны, в которой находится зарегистрированный офис Example \
                 Ltd.",
            ),
        ],
        forbidden: [
            "нарушать закон или права других лиц;",
            "пытаться получить доступ к системам или данным, на использование которых у вас нет разрешения;",
            "нарушать работу сервиса или создавать для него чрезмерную нагрузку.",
        ],
        contact: ("Есть вопросы об этих условиях? Напишите на ", "."),
    },
];

/// The demo agreement in every launch language, sanitized as the operator API would store it.
fn demo_content() -> Result<LocalizedContent, DemoError> {
    AGREEMENTS
        .iter()
        .map(|agreement| sanitize(&agreement.html()).map(|html| (agreement.language, html)))
        .collect::<Result<BTreeMap<_, _>, _>>()
        .map_err(failed)
}

/// The name of the operator token the demo makes.
const DEMO_OPERATOR: &str = "Demo operator";

/// Makes the demo, or brings it up to date, and returns its credentials. Several `demo` processes
/// started at once on one database take turns (the first makes it, the others reuse it).
pub(crate) async fn ensure(
    service: &ClickwrapService,
    store: &PgStore,
    database_url: &DatabaseUrl,
) -> Result<DemoCredentials, DemoError> {
    let lock = lock_demo_setup(database_url).await.map_err(failed)?;
    let credentials = ensure_in_turn(service, store).await;
    lock.release().await.map_err(failed)?;
    credentials
}

async fn ensure_in_turn(service: &ClickwrapService, store: &PgStore) -> Result<DemoCredentials, DemoError> {
    let installation = match store.demo_installation().await.map_err(failed)? {
        Some(existing) => {
            let admin = Admin::server(existing.tenant_id);
            if let Some(version) = update_agreement(service, &admin, existing.template_id).await? {
                tracing::info!(%version, "the demo agreement changed: published it as a new version of the demo template");
            }
            existing
        }
        None => create(service, store).await?,
    };
    let kept = store.demo_secrets().await.map_err(failed)?;
    let app_key = app_key(service, store, &installation, kept.app_key_sealed.as_deref()).await?;
    let operator_token = operator_token(service, store, &installation, kept.operator_token_sealed.as_deref()).await?;
    Ok(DemoCredentials { installation, app_key, operator_token })
}

/// A kept secret, when it opens with the master key.
fn open_kept(service: &ClickwrapService, sealed: Option<&[u8]>, binding: &[u8]) -> Option<String> {
    String::from_utf8(service.open_at_rest(sealed?, binding).ok()?).ok()
}

/// The App Key kept from an earlier start while it still works; else a new one, kept sealed (on
/// the first start, after it was regenerated in the console, or with another master key).
async fn app_key(
    service: &ClickwrapService,
    store: &PgStore,
    installation: &DemoInstallation,
    sealed: Option<&[u8]>,
) -> Result<String, DemoError> {
    let binding = format!("demo app key {}", installation.app_id).into_bytes();
    if let Some(key) = open_kept(service, sealed, &binding)
        && service.authenticate_app(&installation.app_id.to_string(), &key).await.is_ok()
    {
        return Ok(key);
    }
    let admin = Admin::server(installation.tenant_id);
    let key =
        service.regenerate_app_key(&admin, installation.app_id, AppKeyOverlap::NONE).await.map_err(failed)?.app_key;
    let sealed = service.seal_at_rest(key.expose().as_bytes(), &binding).map_err(failed)?;
    store.keep_demo_app_key(&sealed).await.map_err(failed)?;
    Ok(key.expose().to_owned())
}

/// The operator token kept from an earlier start while it still works; else a new one, kept
/// sealed, and the demo tokens that can no longer be shown are revoked.
async fn operator_token(
    service: &ClickwrapService,
    store: &PgStore,
    installation: &DemoInstallation,
    sealed: Option<&[u8]>,
) -> Result<String, DemoError> {
    let binding = format!("demo operator token {}", installation.tenant_id).into_bytes();
    if let Some(token) = open_kept(service, sealed, &binding)
        && service
            .authenticate_operator(&token)
            .await
            .is_ok_and(|operator| operator.tenant.id == installation.tenant_id)
    {
        return Ok(token);
    }
    let admin = Admin::server(installation.tenant_id);
    for token in service.list_operator_tokens(installation.tenant_id).await.map_err(failed)? {
        if token.name.as_str() == DEMO_OPERATOR {
            service.revoke_operator_token(&admin, token.id).await.map_err(failed)?;
        }
    }
    let (_, token) = service.create_operator_token(&admin, DEMO_OPERATOR, OperatorRole::Admin).await.map_err(failed)?;
    let sealed = service.seal_at_rest(token.expose().as_bytes(), &binding).map_err(failed)?;
    store.keep_demo_operator_token(&sealed).await.map_err(failed)?;
    Ok(token.expose().to_owned())
}

async fn create(service: &ClickwrapService, store: &PgStore) -> Result<DemoInstallation, DemoError> {
    let (tenant, _) = service.create_tenant("Demo", None).await.map_err(failed)?;
    // The company the demo's terms name, so its certificates show an operator's legal name.
    service.set_legal_name(tenant.id, Some("Example Ltd")).await.map_err(failed)?;
    let admin = Admin::server(tenant.id);
    let app = service
        .create_app(
            &admin,
            NewApp { name: Name::parse("Demo app").map_err(failed)?, webhook_url: None, allowed_origins: vec![] },
        )
        .await
        .map_err(failed)?
        .app;
    let template_id = create_template(service, &admin).await?;
    let installation = DemoInstallation { tenant_id: tenant.id, app_id: app.id, template_id };
    if store.record_demo_installation(installation).await.map_err(failed)? {
        Ok(installation)
    } else {
        // Another process recorded one first (one that did not take the setup lock): use that one.
        store.demo_installation().await.map_err(failed)?.ok_or_else(|| failed("the demo installation vanished"))
    }
}

/// The demo template: the agreement in every launch language, published as 1.0 and enabled.
async fn create_template(service: &ClickwrapService, admin: &Admin) -> Result<TemplateId, DemoError> {
    let template = service
        .create_template(
            admin,
            NewTemplate {
                name: Name::parse("Demo Terms of Service").map_err(failed)?,
                tags: BTreeSet::from([Tag::parse("demo").map_err(failed)?]),
                app_ids: BTreeSet::new(),
                default_language: Language::English,
                content: demo_content()?,
                customizations: Customizations::default(),
                always_require_acceptance: false,
            },
        )
        .await
        .map_err(failed)?;
    service.publish_version(admin, template.id, VersionKind::Major, None).await.map_err(failed)?;
    service.enable_template(admin, template.id).await.map_err(failed)?;
    Ok(template.id)
}

/// The demo is made once per database, so a database set up by an earlier build keeps that build's
/// agreement unless it is brought up to date here. When the demo template's latest version differs
/// from [`AGREEMENTS`], the current agreement becomes the draft and is published as the next major
/// version (end users who accepted the old text are asked again); earlier versions and every
/// acceptance of them stay on record. Returns the new version, or `None` when nothing changed.
async fn update_agreement(
    service: &ClickwrapService,
    admin: &Admin,
    template_id: TemplateId,
) -> Result<Option<VersionNumber>, DemoError> {
    let content = demo_content()?;
    let template = service.get_template(admin.tenant_id(), template_id).await.map_err(failed)?;
    if template.latest_version().is_some_and(|version| version.content == content) {
        return Ok(None);
    }
    service.save_draft(admin, template_id, content).await.map_err(failed)?;
    match service.publish_version(admin, template_id, VersionKind::Major, None).await {
        Ok((_, version)) => Ok(Some(version.number)),
        // Another instance starting at the same moment published it.
        Err(PublishVersionError::Conflict) => Ok(None),
        Err(error) => Err(failed(error)),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use clickwrap_domain::Timestamp;
    use clickwrap_domain::memory::{self, ManualClock};
    use clickwrap_domain::service::Settings;

    use super::*;

    async fn service() -> (ClickwrapService, Arc<ManualClock>) {
        let clock = Arc::new(ManualClock::new(Timestamp::parse_rfc3339("2026-11-25T07:00:00.000Z").unwrap()));
        let (ports, _) = memory::ports(clock.clone());
        (
            ClickwrapService::start(
                ports,
                Settings::default(),
                clickwrap_domain::keys::master::MasterKeys::new(
                    clickwrap_domain::keys::master::MasterKey::from_bytes([7; 32]),
                    None,
                ),
            )
            .await
            .unwrap(),
            clock,
        )
    }

    /// How many of each part a language's agreement has.
    fn shape(html: &str) -> [usize; 6] {
        ["<h1>", "<h2>", "<p>", "<li>", "<a ", "{{fullName}}"].map(|part| html.matches(part).count())
    }

    #[test]
    fn every_launch_language_has_the_whole_agreement() {
        let content = demo_content().unwrap();
        assert_eq!(content.keys().copied().collect::<Vec<_>>(), Language::ALL.to_vec());
        // A title, a welcome with the placeholder, ten sections, a list of three, the contact line.
        let english = shape(content[&Language::English].as_str());
        assert_eq!(english, [1, 10, 12, 3, 1, 1]);
        for (language, html) in &content {
            assert_eq!(shape(html.as_str()), english, "{language}: {}", html.as_str());
        }
        for agreement in &AGREEMENTS {
            let texts = [agreement.title, agreement.welcome, agreement.contact.0]
                .into_iter()
                .chain(agreement.sections.iter().flat_map(|(heading, text)| [*heading, *text]))
                .chain(agreement.forbidden);
            for text in texts {
                assert!(!text.trim().is_empty() && text.trim_start() == text, "{}: {text:?}", agreement.language);
                assert!(!text.contains("  "), "{}: a line break left two spaces in {text:?}", agreement.language);
            }
        }
    }

    #[tokio::test]
    async fn a_new_demo_template_is_published_enabled_and_current() {
        let (service, _) = service().await;
        let (tenant, _) = service.create_tenant("Demo", None).await.unwrap();
        let admin = Admin::server(tenant.id);
        let template_id = create_template(&service, &admin).await.unwrap();
        let template = service.get_template(tenant.id, template_id).await.unwrap();
        assert!(template.enabled);
        assert_eq!(template.versions.len(), 1);
        assert_eq!(update_agreement(&service, &admin, template_id).await.unwrap(), None, "nothing to update");
        assert_eq!(service.get_template(tenant.id, template_id).await.unwrap().versions.len(), 1);
    }

    #[tokio::test]
    async fn an_older_demo_agreement_is_replaced_by_a_new_major_version_once() {
        let (service, clock) = service().await;
        let (tenant, _) = service.create_tenant("Demo", None).await.unwrap();
        let admin = Admin::server(tenant.id);
        let template_id = create_template(&service, &admin).await.unwrap();
        // What an earlier build made: a shorter agreement, as the latest version.
        let old = BTreeMap::from([(Language::English, sanitize("<h1>Terms</h1><p>Hello {{fullName}}.</p>").unwrap())]);
        service.save_draft(&admin, template_id, old.clone()).await.unwrap();
        clock.advance(time::Duration::days(1));
        service.publish_version(&admin, template_id, VersionKind::Major, None).await.unwrap();

        clock.advance(time::Duration::days(1));
        let published = update_agreement(&service, &admin, template_id).await.unwrap();
        assert_eq!(published, Some(VersionNumber { major: 3, minor: 0 }));
        let template = service.get_template(tenant.id, template_id).await.unwrap();
        assert!(template.enabled);
        assert_eq!(template.latest_version().unwrap().content, demo_content().unwrap());
        let old_version = template.versions.get(1).unwrap();
        assert_eq!(old_version.content, old, "earlier versions stay as they were published");

        // The next start finds it current.
        clock.advance(time::Duration::days(1));
        assert_eq!(update_agreement(&service, &admin, template_id).await.unwrap(), None);
        assert_eq!(service.get_template(tenant.id, template_id).await.unwrap().versions.len(), 3);
    }
}
